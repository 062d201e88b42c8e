#!/usr/bin/env bash
# `npm run test:spark`: writes a dataset with `warcdex parquet` and queries it
# with Apache Spark in local mode (PyPI pyspark; needs Java). Not part of
# `npm test`: the first run downloads pyspark (~300 MB) into a venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=__test__/out/spark
VENV=__test__/out/spark-venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import pyspark' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q pyspark
fi
rm -rf "$OUT/ds" && mkdir -p "$OUT"
node __test__/spark/make-input.js > "$OUT/in.cdxj"
node bin/warcdex.js parquet "$OUT/in.cdxj" "$OUT/ds"
"$VENV/bin/python" __test__/spark/check.py "$OUT/ds" "$OUT/in.cdxj"
