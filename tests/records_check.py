#!/usr/bin/env python3
"""records_check.py DOC JSON... -- CSV...: the fields gosim writes are the
fields docs/trace-format.md lists, and CSV reads as typed data.
- every key in the json documents (top level, gosim, config, each record,
  summary) and every CSV column is a row "| `name` |" of a table in DOC
  (or a top-level key named in its Formats section);
- pandas.read_csv(f) with no arguments reads every integer column as an
  integer dtype, with no missing value (checked on the cells directly
  when pandas is not installed, and said so)."""
import csv
import json
import re
import sys

INT_COLS = ["t", "seq", "g", "p", "m", "from_p", "victim", "n", "runnext", "from_m", "ran_us", "by_m", "by_p"]
fails = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL " + msg)


def main():
    args = sys.argv[1:]
    doc = open(args[0]).read()
    sep = args.index("--")
    jsons, csvs = args[1:sep], args[sep + 1:]
    listed = set()
    for cell in re.findall(r"^\| ([^|]*`[^|]*) \|", doc, re.M):  # a table row's first cell
        listed.update(re.findall(r"`([a-z_]+)`", cell))
    top = {"gosim", "config", "events", "summary", "version", "schema"}
    seen = {}
    for path in jsons:
        d = json.load(open(path))
        for k in d:
            seen.setdefault(k, path)
        for k in d["gosim"]:
            seen.setdefault(k, path)
        for k in d["config"]:
            seen.setdefault(k, path)
        for k in d["summary"] or {}:
            seen.setdefault(k, path)
        for r in d["events"]:
            for k in r:
                seen.setdefault(k, path)
    for path in csvs:
        with open(path, newline="") as f:
            for k in next(csv.reader(f)):
                seen.setdefault(k, path)
    for k, path in sorted(seen.items()):
        if k not in listed and k not in top:
            fail("%s writes the field %r, which docs/trace-format.md does not list" % (path, k))
    try:
        import pandas as pd
    except ImportError:
        pd = None
        print("records: pandas is not installed: checking the CSV cells directly (sh tools/setup.sh installs python3-pandas)")
    for path in csvs:
        if pd is not None:
            d = pd.read_csv(path)
            for c in INT_COLS:
                if not pd.api.types.is_integer_dtype(d[c].dtype):
                    fail("%s: pandas reads column %s as %s" % (path, c, d[c].dtype))
        with open(path, newline="") as f:
            for i, row in enumerate(csv.DictReader(f)):
                for c in INT_COLS:
                    if not re.fullmatch(r"-?[0-9]+", row[c]):
                        fail("%s row %d: %s is %r, not an integer" % (path, i + 2, c, row[c]))
                        break
    print("records: %d fields in %d json and %d csv traces checked against the docs%s, %d problems"
          % (len(seen), len(jsons), len(csvs), " and pandas" if pd is not None else "", fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
