#!/usr/bin/env python3
"""A small CDXJ indexer on FastWARC's ArchiveIterator, for `npm run bench`.

    python benches/fastwarc_cdxj.py FILE... > index.cdxj

It writes one line per record in cdxj-indexer 1.5's default form:

    urlkey timestamp {"url", "mime", "status", "digest", "length", "offset", "filename"}

computing each field the way cdxj-indexer does, as far as FastWARC allows:

- records: response, revisit, resource and metadata, leaving out resource and
  metadata records whose Content-Type is application/warc-fields;
- urlkey: `surt.surt(url)` (the package cdxj-indexer uses), the URL itself if
  that fails; timestamp: the digits of WARC-Date, first 14;
- mime: `warc/revisit` for revisits, the HTTP Content-Type for response
  records, the WARC Content-Type otherwise, cut at the first ';' or space;
- status: the HTTP status code of response and revisit records;
- digest: WARC-Payload-Digest, or when it is missing the SHA-1 (base32) of the
  payload as stored after the HTTP headers, as warcio's ensure_digest does;
- offset: FastWARC's stream position of the record (the compressed offset of
  its gzip member or zstd frame); length: up to the next record's position
  (the file's end for the last record); for uncompressed files without the
  4 bytes of the closing CRLF CRLF, as warcio counts them.

What it does not compute (FastWARC has no way to): ARC files (FastWARC reads
WARC only); POST/PUT request bodies appended to the urlkey (cdxj-indexer -p);
warcio's arc2warc conversions; and the length of a record that is not
followed by the usual CRLF CRLF in an uncompressed file is assumed, not read.
JSON is written with json.dumps as cdxj-indexer does.
"""

import base64
import hashlib
import json
import os
import re
import sys

import surt
from fastwarc.warc import ArchiveIterator, WarcRecordType

INDEXED = WarcRecordType.response | WarcRecordType.revisit | WarcRecordType.resource | WarcRecordType.metadata
RE_SPACE = re.compile(r"[;\s]")
RE_NOT_DIGIT = re.compile(r"\D")


def url_key(url):
    try:
        return surt.surt(url)
    except Exception:  # as cdxj-indexer: fall back to the URL itself
        return url


def timestamp(warc_date):
    digits = RE_NOT_DIGIT.sub("", warc_date or "")[:14]
    return digits + "0" * (14 - len(digits)) if digits else digits


def cut_mime(value):
    if not value:
        return None
    return RE_SPACE.split(value, 1)[0].strip()


def payload_sha1(record):
    sha = hashlib.sha1()
    reader = record.reader
    while True:
        chunk = reader.read(1 << 16)
        if not chunk:
            break
        sha.update(chunk)
    return "sha1:" + base64.b32encode(sha.digest()).decode("ascii")


def is_compressed(path):
    with open(path, "rb") as fh:
        magic = fh.read(4)
    return magic[:2] == b"\x1f\x8b" or magic == b"\x28\xb5\x2f\xfd" or magic == b"\x5d\x2a\x4d\x18"


def index_file(path, out):
    filename = os.path.basename(path)
    file_size = os.path.getsize(path)
    trailer = 0 if is_compressed(path) else 4
    pending = None  # (offset, urlkey, ts, fields) waiting for the next record's position

    def flush(next_pos):
        offset, key, ts, fields = pending
        fields["length"] = str(next_pos - offset - trailer)
        fields["offset"] = str(offset)
        fields["filename"] = filename
        out.write(key + " " + ts + " " + json.dumps(fields) + "\n")

    # Every record is iterated (not only the indexed types), since the next
    # record's position is what gives a record's length.
    for record in ArchiveIterator(path, parse_http=True):
        pos = record.stream_pos
        if pending is not None:
            flush(pos)
            pending = None
        rtype = record.record_type
        if not rtype & INDEXED:
            continue
        headers = record.headers
        warc_type_ct = headers.get("Content-Type")
        if rtype in (WarcRecordType.resource, WarcRecordType.metadata) and warc_type_ct == "application/warc-fields":
            continue
        url = headers.get("WARC-Target-URI")
        fields = {"url": url}
        if rtype == WarcRecordType.revisit:
            mime = "warc/revisit"
        elif rtype == WarcRecordType.response:
            mime = cut_mime(record.http_headers.get("Content-Type")) if record.is_http else None
        else:
            mime = cut_mime(warc_type_ct)
        if mime is not None:
            fields["mime"] = mime
        if rtype in (WarcRecordType.response, WarcRecordType.revisit) and record.is_http:
            status = record.http_headers.status_code
            if status is not None:
                fields["status"] = str(status)
        digest = headers.get("WARC-Payload-Digest")
        if not digest:
            digest = payload_sha1(record)
        fields["digest"] = digest
        pending = (pos, url_key(url or ""), timestamp(headers.get("WARC-Date")), fields)
    if pending is not None:
        flush(file_size)


def main(argv):
    if not argv:
        sys.stderr.write("usage: fastwarc_cdxj.py FILE...\n")
        return 2
    out = sys.stdout
    for path in argv:
        index_file(path, out)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
