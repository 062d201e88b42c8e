"""Reads a warcdex dataset with Spark (local mode) and checks what Spark sees.

usage: check.py DATASET INPUT.cdxj README.md WORKDIR

Every expected answer is computed here from the CDXJ input (and the spec's
facts), never from the dataset, so a wrong dataset cannot agree with itself.
"""
import calendar
import glob
import json
import os
import re
import sys
import time
from collections import Counter
from urllib.parse import urlsplit

from pyspark.sql import SparkSession

ds, cdxj, readme, work = (os.path.abspath(p) for p in sys.argv[1:5])

# Session time zone UTC: the timestamp is an instant, and printing it in the
# machine's zone would hide an off-by-hours writer bug behind a local offset.
spark = (SparkSession.builder.master("local[1]").appName("warcdex-spark-check")
         .config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false")
         .config("spark.sql.session.timeZone", "UTC")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.sql.warehouse.dir", os.path.join(work, "warehouse"))
         .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                 f"jdbc:derby:;databaseName={os.path.join(work, 'metastore_db')};create=true")
         .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={work}")
         .enableHiveSupport()  # to run the README's Athena DDL as written
         .getOrCreate())
spark.sparkContext.setLogLevel("ERROR")

passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    print(("ok   " if ok else "FAIL ") + what + ("" if ok or not detail else f"\n     {detail}"))
    passed += bool(ok)
    failed += not ok


def rows(sql):
    return [tuple(r) for r in spark.sql(sql).collect()]


# --- expectations from the input -------------------------------------------
# Public-suffix answers for the input's hosts (spec A2: ICANN section for the
# registry columns, ICANN+private for the private ones).
PSL = {  # host: (registry suffix, registered domain, private suffix, private domain)
    "an.wikipedia.org": ("org", "wikipedia.org", "org", "wikipedia.org"),
    "www.commoncrawl.org": ("org", "commoncrawl.org", "org", "commoncrawl.org"),
    "www.vg.no": ("no", "vg.no", "no", "vg.no"),
    "nrk.no": ("no", "nrk.no", "no", "nrk.no"),
    "myblog.blogspot.com": ("com", "blogspot.com", "blogspot.com", "myblog.blogspot.com"),
    "bbc.co.uk": ("co.uk", "bbc.co.uk", "co.uk", "bbc.co.uk"),
}
CC_PATH = re.compile(r"^crawl-data/([^/]+)/segments/([^/]+)/(crawldiagnostics|robotstxt|warc)/")
want = []
for line in open(cdxj):
    surtkey, ts, rest = line.rstrip("\n").split(" ", 2)
    j = json.loads(rest)
    host = urlsplit(j["url"]).hostname
    crawl, segment, subset = CC_PATH.match(j["filename"]).groups()
    want.append(dict(
        url=j["url"], url_host_name=host, url_host_tld=host.rsplit(".", 1)[-1],
        url_host_registered_domain=PSL[host][1], url_host_private_domain=PSL[host][3],
        fetch_ms=calendar.timegm(time.strptime(ts, "%Y%m%d%H%M%S")) * 1000,
        fetch_status=int(j["status"]), content_mime_type=j["mime"], warc_filename=j["filename"],
        warc_record_offset=int(j["offset"]), warc_record_length=int(j["length"]),
        warc_segment=segment, crawl=crawl, subset=subset))

# --- schema as Spark sees it -------------------------------------------------
# Spec A1's 30 columns in on-disk order with Spark's type names, offset/length
# widened to bigint (README), then the partition columns Spark appends.
S, I = "string", "int"
SCHEMA = [
    ("url_surtkey", S), ("url", S), ("url_host_name", S), ("url_host_tld", S),
    ("url_host_2nd_last_part", S), ("url_host_3rd_last_part", S), ("url_host_4th_last_part", S),
    ("url_host_5th_last_part", S), ("url_host_registry_suffix", S), ("url_host_registered_domain", S),
    ("url_host_private_suffix", S), ("url_host_private_domain", S), ("url_host_name_reversed", S),
    ("url_protocol", S), ("url_port", I), ("url_path", S), ("url_query", S),
    ("fetch_time", "timestamp"), ("fetch_status", "smallint"), ("fetch_redirect", S),
    ("content_digest", S), ("content_mime_type", S), ("content_mime_detected", S),
    ("content_charset", S), ("content_languages", S), ("content_truncated", S),
    ("warc_filename", S), ("warc_record_offset", "bigint"), ("warc_record_length", "bigint"),
    ("warc_segment", S), ("crawl", S), ("subset", S)]
NOT_NULL = {"url_surtkey", "url", "url_host_name", "url_protocol", "url_path", "fetch_time",
            "fetch_status", "warc_filename", "warc_record_offset", "warc_record_length", "warc_segment"}

df = spark.read.parquet(ds)  # partition discovery: crawl=/subset= directories
df.createOrReplaceTempView("ccindex")
got_schema = [(f.name, f.dataType.simpleString()) for f in df.schema.fields]
check("Spark schema: 30 spec columns in order + crawl, subset; timestamp, smallint, int, bigint offsets",
      got_schema == SCHEMA,
      "differs at " + str([(w, g) for w, g in zip(SCHEMA, got_schema) if w != g] or (len(SCHEMA), len(got_schema))))

# Spark reports every file column as nullable, so REQUIRED/OPTIONAL and the
# logical types are read from each file's footer with Spark's parquet-mr.
PHYS = {S: ("BINARY", "STRING"), I: ("INT32", None), "smallint": ("INT32", "INTEGER(16,true)"),
        "timestamp": ("INT64", "TIMESTAMP(MILLIS,true)"), "bigint": ("INT64", None)}
jvm = spark._jvm
conf = spark._jsc.hadoopConfiguration()
files = sorted(glob.glob(os.path.join(ds, "crawl=*", "subset=*", "*.parquet")))
bad = []
for f in files:
    reader = jvm.org.apache.parquet.hadoop.ParquetFileReader.open(
        jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(jvm.org.apache.hadoop.fs.Path(f), conf))
    try:
        fields = reader.getFooter().getFileMetaData().getSchema().getFields()
        got = []
        for k in range(fields.size()):
            t = fields.get(k)
            lt = t.getLogicalTypeAnnotation()
            got.append((t.getName(), t.asPrimitiveType().getPrimitiveTypeName().name(),
                        None if lt is None else lt.toString(), t.getRepetition().name()))
    finally:
        reader.close()
    exp = [(n, *PHYS[t], "REQUIRED" if n in NOT_NULL else "OPTIONAL") for n, t in SCHEMA[:30]]
    if got != exp:
        bad.append((os.path.relpath(f, ds), [(e, g) for e, g in zip(exp, got) if e != g] or len(got)))
check(f"Parquet footers of all {len(files)} files: physical/logical types and REQUIRED/OPTIONAL per spec",
      files and not bad, str(bad[:2]))

# --- partitions and rows -----------------------------------------------------
want_parts = Counter((w["crawl"], w["subset"]) for w in want)
got_dirs = {tuple(p.split("=", 1)[1] for p in os.path.relpath(os.path.dirname(f), ds).split(os.sep)) for f in files}
check(f"partition directories crawl=/subset= are {sorted(want_parts)}", got_dirs == set(want_parts), str(got_dirs))
check(f"row count {len(want)}", df.count() == len(want), str(df.count()))

# Q1 of the spec, verbatim but for the table name (Athena's "db"."table").
q1 = {(c, s): n for n, c, s in rows("SELECT COUNT(*) as n_captures, crawl, subset FROM ccindex GROUP BY crawl, subset")}
check("spec Q1 count-by-partition", q1 == want_parts, f"{q1} != {dict(want_parts)}")

# Every row's derived values against the input, as multisets.
cols = ["url", "url_host_name", "url_host_tld", "url_host_registered_domain", "url_host_private_domain",
        "fetch_ms", "fetch_status", "content_mime_type", "warc_filename", "warc_record_offset",
        "warc_record_length", "warc_segment", "crawl", "subset"]
got_rows = Counter(rows("SELECT " + ", ".join("unix_millis(fetch_time)" if c == "fetch_ms" else c for c in cols)
                        + " FROM ccindex"))
want_rows = Counter(tuple(w[c] for c in cols) for w in want)
check(f"all {len(want)} rows: url, host parts, fetch_time instant, status, offsets, crawl/segment/subset",
      got_rows == want_rows, f"missing {list((want_rows - got_rows).elements())[:2]}, "
                             f"unexpected {list((got_rows - want_rows).elements())[:2]}")

# The spec's verbatim production row (A2), every column.
PROD = dict(
    url_surtkey="org,wikipedia,an)/wiki/escopete", url="https://an.wikipedia.org/wiki/Escopete",
    url_host_name="an.wikipedia.org", url_host_tld="org", url_host_2nd_last_part="wikipedia",
    url_host_3rd_last_part="an", url_host_4th_last_part=None, url_host_5th_last_part=None,
    url_host_registry_suffix="org", url_host_registered_domain="wikipedia.org", url_host_private_suffix="org",
    url_host_private_domain="wikipedia.org", url_host_name_reversed="org.wikipedia.an", url_protocol="https",
    url_port=None, url_path="/wiki/Escopete", url_query=None, fetch_time="2024-05-18 01:58:10",
    fetch_status=200, fetch_redirect=None, content_digest="RY7PLBUFQNI2FFV5FTUQK72W6SNPXLQU",
    content_mime_type="text/html", content_mime_detected="text/html", content_charset="UTF-8",
    content_languages="spa", content_truncated=None,
    warc_filename="crawl-data/CC-MAIN-2024-22/segments/1715971057216.39/warc/CC-MAIN-20240517233122-20240518023122-00000.warc.gz",
    warc_record_offset=80610731, warc_record_length=17423, warc_segment="1715971057216.39",
    crawl="CC-MAIN-2024-22", subset="warc")
prod = spark.sql("SELECT *, date_format(fetch_time, 'yyyy-MM-dd HH:mm:ss') AS fetch_time_utc FROM ccindex "
                 "WHERE url_host_registered_domain = 'wikipedia.org'").collect()
got_prod = dict(prod[0].asDict(), fetch_time=prod[0]["fetch_time_utc"]) if len(prod) == 1 else {}
got_prod.pop("fetch_time_utc", None)
check("the spec's production row reads back, all 32 columns (fetch_time in UTC)", got_prod == PROD,
      str({k: (PROD.get(k), got_prod.get(k)) for k in set(PROD) | set(got_prod) if PROD.get(k) != got_prod.get(k)}))

# --- the spec's example queries ----------------------------------------------
w18 = [w for w in want if w["crawl"] == "CC-MAIN-2018-05" and w["subset"] == "warc"]
q2 = rows("""SELECT COUNT(*) AS n_pages, url_host_tld AS tld, COUNT(DISTINCT url_host_name) AS n_hosts,
                    COUNT(DISTINCT url_host_registered_domain) AS n_domains
             FROM ccindex WHERE crawl = 'CC-MAIN-2018-05' AND subset = 'warc'
             GROUP BY url_host_tld ORDER BY n_pages DESC""")
want_q2 = {}
for w in w18:
    e = want_q2.setdefault(w["url_host_tld"], [0, set(), set()])
    e[0] += 1
    e[1].add(w["url_host_name"])
    e[2].add(w["url_host_registered_domain"])
want_q2 = {t: (n, len(h), len(d)) for t, (n, h, d) in want_q2.items()}
check(f"spec Q2 count-by-tld-page-host-domain ({len(q2)} tlds)",
      {t: (n, h, d) for n, t, h, d in q2} == want_q2 and [r[0] for r in q2] == sorted((r[0] for r in q2), reverse=True),
      f"{q2} vs {want_q2}")

q3 = rows("""SELECT COUNT(*) AS count, url_host_registered_domain FROM ccindex
             WHERE crawl = 'CC-MAIN-2018-05' AND subset = 'warc' AND url_host_tld = 'no'
             GROUP BY url_host_registered_domain HAVING (COUNT(*) >= 100) ORDER BY count DESC""")
c3 = Counter(w["url_host_registered_domain"] for w in w18 if w["url_host_tld"] == "no")
want_q3 = sorted(((n, d) for d, n in c3.items() if n >= 100), reverse=True)
check(f"spec Q3 count-domains-of-tld {q3}", sorted(q3, reverse=True) == want_q3 and len(want_q3) == 2,
      f"want {want_q3}")

q4 = rows("""SELECT COUNT(*) as count, fetch_status FROM ccindex
             WHERE crawl = 'CC-MAIN-2018-05' AND subset = 'crawldiagnostics'
             GROUP BY fetch_status ORDER BY count DESC""")
want_q4 = Counter(w["fetch_status"] for w in want if w["crawl"] == "CC-MAIN-2018-05" and w["subset"] == "crawldiagnostics")
check(f"spec Q4 count-fetch-status {q4}", {s: n for n, s in q4} == dict(want_q4), str(dict(want_q4)))

q5 = rows("""SELECT url, warc_filename, warc_record_offset, warc_record_length FROM ccindex
             WHERE crawl = 'CC-MAIN-2018-05' AND subset = 'warc' AND url_host_registered_domain = 'commoncrawl.org'
             LIMIT 1000""")
want_q5 = sorted((w["url"], w["warc_filename"], w["warc_record_offset"], w["warc_record_length"])
                 for w in w18 if w["url_host_registered_domain"] == "commoncrawl.org")
check(f"spec Q5 get-records-of-domain ({len(q5)} records, offsets past 2^31 intact)",
      sorted(q5) == want_q5 and max(r[2] for r in q5) == 3000000000, f"{len(want_q5)} wanted")

q6 = rows("""SELECT url, content_mime_type, content_mime_detected, warc_filename, warc_record_offset, warc_record_length
             FROM ccindex WHERE crawl = 'CC-MAIN-2018-05' AND subset = 'warc'
               AND (content_mime_detected = 'application/pdf' OR content_mime_type LIKE '%pdf%') LIMIT 1000""")
want_q6 = [(w["url"], w["content_mime_type"], None, w["warc_filename"], w["warc_record_offset"], w["warc_record_length"])
           for w in w18 if "pdf" in w["content_mime_type"]]
check(f"spec Q6 get-records-of-mime-type {q6}", q6 == want_q6, str(want_q6))

# --- catalog tables as the README shows them ----------------------------------
loc = "file://" + ds
spark.sql("DROP TABLE IF EXISTS cc_spark")
spark.sql(f"CREATE TABLE cc_spark USING parquet LOCATION '{loc}'")
spark.sql("MSCK REPAIR TABLE cc_spark")
n = rows("SELECT COUNT(*) FROM cc_spark")[0][0]
parts = {r[0] for r in rows("SHOW PARTITIONS cc_spark")}
check(f"Spark table (CREATE TABLE ... USING parquet LOCATION + MSCK REPAIR TABLE): {n} rows, {len(parts)} partitions",
      n == len(want) and len(parts) == len(want_parts))

# The README's Athena DDL, run as written (only the location changes) with
# Spark's Hive support: a column type that does not match the files fails the
# read below, since every column is read.
text = open(readme).read()
m = re.search(r"(CREATE EXTERNAL TABLE ccindex \(.*?LOCATION ')s3://[^']*(';)", text, re.S)
if not m:
    check("README has the Athena CREATE EXTERNAL TABLE ccindex DDL", False)
else:
    spark.sql("DROP TABLE IF EXISTS ccindex")
    spark.catalog.dropTempView("ccindex")
    spark.sql(m.group(1) + loc + "'")
    spark.sql("MSCK REPAIR TABLE ccindex")
    cols_t = [(f.name, f.dataType.simpleString()) for f in spark.table("ccindex").schema.fields]
    all_rows = spark.sql("SELECT * FROM ccindex").collect()
    big = rows("SELECT warc_record_offset, warc_record_length FROM ccindex WHERE url LIKE '%/big'")
    check(f"README's Athena DDL + MSCK REPAIR TABLE: same schema, {len(all_rows)} rows, all columns readable",
          cols_t == SCHEMA and len(all_rows) == len(want) and big == [(3000000000, 2200000000)],
          f"{[(w, g) for w, g in zip(SCHEMA, cols_t) if w != g]} {len(all_rows)} {big}")
    spark.sql("DROP TABLE ccindex")

spark.stop()
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
