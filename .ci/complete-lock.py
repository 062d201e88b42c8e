"""Records the platform packages of optional native dependencies in package-lock.json.

The registry mirror this project is built against serves only the linux-x64
builds of @napi-rs/cli's optional native helpers, so `npm install` leaves the
other platforms out of the lock, and `npm ci` then refuses the lock as out of
sync. This adds each missing platform package as an optional, os/cpu-limited
entry, which npm skips on other platforms. Run after `npm install`.
"""
import json, re, subprocess
p='package-lock.json'
lock=json.load(open(p))
pk=lock['packages']
added=0
for path,info in list(pk.items()):
    for name,ver in (info.get('optionalDependencies') or {}).items():
        key='node_modules/'+name
        if key in pk: continue
        m=re.search(r'-(android|darwin|freebsd|linux|win32|wasm32)-([a-z0-9]+)',name)
        if not m: continue
        osn,cpu=m.group(1),m.group(2)
        entry={"version":ver.lstrip('^~'),"dev":True,"optional":True}
        if osn=='wasm32': entry["cpu"]=["wasm32"]
        else:
            entry["os"]=[osn]; entry["cpu"]=[{'arm':'arm'}.get(cpu,cpu)]
        pk[key]=entry; added+=1
json.dump(lock,open(p,'w'),indent=2); open(p,'a').write('\n')
print('added',added)
