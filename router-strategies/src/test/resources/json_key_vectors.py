"""The json-field vectors as Python reads them: for every row of a table such as
json-key-vectors.json, the value json.loads gives for its field or pointer must be the row's key.
Prints "N rows, M mismatches", then each mismatch. Run: /usr/bin/python3 json_key_vectors.py TABLE
"""
import json
import math
import re
import sys

INDEX = re.compile(r"(0|[1-9][0-9]*)\Z")
ABSENT = object()


def reject(constant):
    # NaN and Infinity are Python's extension, not JSON (RFC 8259): JSON.parse and Jackson refuse them.
    raise ValueError(constant)


def path(row):
    if "field" in row:
        return [(row["field"], False)]
    # RFC 6901: ~1 before ~0, so that ~01 stays the text "~1".
    names = [token.replace("~1", "/").replace("~0", "~") for token in row["pointer"][1:].split("/")]
    return [(name, INDEX.match(name) is not None) for name in names]


def value_at(body, steps):
    try:
        node = json.loads(body, parse_constant=reject)
    except ValueError:
        return ABSENT  # not JSON: no key
    for name, is_index in steps:
        if isinstance(node, list):
            if not is_index or int(name) >= len(node):
                return ABSENT
            node = node[int(name)]
        elif isinstance(node, dict) and name in node:
            node = node[name]
        else:
            return ABSENT
    return node


def as_float(number):
    try:
        return float(number)
    except OverflowError:  # an integer past the doubles, which JavaScript reads as Infinity
        return math.copysign(math.inf, number)


# Python writes 1.0 as "1.0" where the key is "1": a number agrees when it is the key's number,
# which is how Python itself compares them (1 == 1.0, and both are one dict key).
def agrees(value, key):
    if isinstance(value, str) and value.strip() != "":
        return value == key
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return key is not None and as_float(value) == float(key)
    return key is None


def main(table_path):
    with open(table_path, encoding="utf-8") as table:
        rows = json.load(table)["rows"]
    mismatches = []
    for row in rows:
        value = value_at(row["body"], path(row))
        if not agrees(value, row["key"]):
            shown = "no value" if value is ABSENT else ascii(value)
            mismatches.append(f"{row['why']}: {ascii(row['body'])} gives {shown}, the table says {ascii(row['key'])}")
    print(f"{len(rows)} rows, {len(mismatches)} mismatches")
    for line in mismatches:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1])
