"""Reads a warcdex dataset with Spark (local mode) and checks schema and answers."""
import json
import sys

from pyspark.sql import SparkSession

ds, cdxj = sys.argv[1], sys.argv[2]
spark = (SparkSession.builder.master("local[1]").appName("warcdex-spark-check")
         .config("spark.ui.enabled", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
df = spark.read.parquet(ds)  # discovers crawl=/subset= partitions
df.createOrReplaceTempView("ccindex")

passed = failed = 0


def check(what, ok):
    global passed, failed
    print(("ok   " if ok else "FAIL ") + what)
    passed += ok
    failed += not ok


types = dict((f.name, f.dataType.simpleString()) for f in df.schema.fields)
check("fetch_time is a timestamp", types["fetch_time"] == "timestamp")
check("fetch_status is a short", types["fetch_status"] == "smallint")
check("url_port is an int", types["url_port"] == "int")
check("warc_record_offset is a bigint", types["warc_record_offset"] == "bigint")
check("partition columns crawl and subset", types.get("crawl") == "string" and types.get("subset") == "string")
check("30 stored columns + 2 partition columns", len(df.columns) == 32)

want = {}
for line in open(cdxj):
    j = json.loads(line.split(" ", 2)[2])
    parts = j["filename"].split("/")
    want[(parts[1], parts[4])] = want.get((parts[1], parts[4]), 0) + 1
got = {(r["crawl"], r["subset"]): r["n_captures"] for r in spark.sql(
    "SELECT COUNT(*) as n_captures, crawl, subset FROM ccindex GROUP BY crawl, subset").collect()}
check(f"count by partition {got} == {want}", got == want)

row = spark.sql("SELECT * FROM ccindex WHERE url_host_registered_domain = 'wikipedia.org'").collect()
check("the production row reads back", len(row) == 1 and row[0]["url_host_name_reversed"] == "org.wikipedia.an"
      and row[0]["fetch_time"].strftime("%Y-%m-%d") == "2024-05-18" and row[0]["warc_record_offset"] == 80610731)
n = spark.sql("SELECT COUNT(*) AS n FROM ccindex WHERE crawl = 'CC-MAIN-2018-05' AND subset = 'warc' "
              "AND url_host_private_domain = 'myblog.blogspot.com'").collect()[0]["n"]
check(f"private domain filter ({n} rows)", n == sum(1 for i in range(2000) if (i * 7) % 5 == 3 and i % 4 < 2))
spark.stop()
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
