#!/usr/bin/env bash
# `npm run test:spark`: writes a dataset with `warcdex parquet` and queries it
# with Apache Spark in local mode (PyPI pyspark, Java 17+). Not part of
# `npm test`: Spark is large and slow to start. Whoever runs this wants Spark
# checked, so a missing pyspark is installed (into a venv under __test__/out,
# leaving the system Python alone) and a failure to do so fails the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=__test__/out/spark
VENV=__test__/out/spark-venv
die() { echo "test:spark: FAILED: $*" >&2; exit 1; }

command -v java >/dev/null || die "java not found (pyspark needs Java 17 or later)"
command -v python3 >/dev/null || die "python3 not found"
[ -f dist/cli.js ] || die "dist/cli.js missing: run npm run build first"
if python3 -c 'import pyspark' 2>/dev/null; then
  PY=python3
else
  if ! { [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import pyspark' 2>/dev/null; }; then
    echo "test:spark: pyspark not found, installing it into $VENV (about 500 MB, once)"
    python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$VENV/bin/pip" install -q pyspark || die "pip install pyspark failed"
  fi
  PY=$VENV/bin/python
fi

rm -rf "$OUT" && mkdir -p "$OUT"
node __test__/spark/make-input.js > "$OUT/in.cdxj"
node bin/warcdex.js parquet "$OUT/in.cdxj" "$OUT/ds"
# Spark's start-up lines come before check.py could lower the log level, so
# the level is set in a log4j2 file. The org.apache.spark logger must be set
# too: without a logger of its own Spark announces "Setting default log level".
mkdir -p "$OUT/conf"
printf '%s\n' 'rootLogger.level = error' 'rootLogger.appenderRef.stderr.ref = console' \
  'logger.spark.name = org.apache.spark' 'logger.spark.level = error' \
  'appender.console.type = Console' 'appender.console.name = console' 'appender.console.target = SYSTEM_ERR' \
  'appender.console.layout.type = PatternLayout' 'appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n' \
  > "$OUT/conf/log4j2.properties"
# The JVM's own notice about the vector module has no switch; drop just that line.
SPARK_CONF_DIR="$PWD/$OUT/conf" "$PY" __test__/spark/check.py "$OUT/ds" "$OUT/in.cdxj" README.md "$OUT" \
  2> >(grep -v '^WARNING: Using incubator modules: jdk.incubator.vector$' >&2)
echo "test:spark: done in ${SECONDS}s"
