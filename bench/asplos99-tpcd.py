#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""TPC-D's ORDERS and LINEITEM at a small scale factor, as an SQLite database, and its
queries 4 and 6: seed 003's database application (Schlosser et al., ASPLOS IX, §4.2, "TPC-D
queries 4 and 6"), for bench/asplos99-apps.

The columns and their value rules follow the TPC-D specification's definitions of the two
tables (clause 4.2.3, as its dbgen implements them): order keys sparse (the first 8 of every
32), order dates uniform from 1992-01-01 to 151 days before 1998-12-31, 1 to 7 line items
an order, ship, commit and receipt dates offset from the order date, extended price from
the part's retail price, return flag and line status against the current date 1995-06-17,
and the order's status and total price from its line items. The comment columns are
random words of the right lengths (dbgen draws them from a grammar). Only the two tables
the queries read are made; the others would not be read.

  bench/asplos99-tpcd.py generate --scale SF DB     the database (SF 1 = 1.5 M orders)
  bench/asplos99-tpcd.py query {4,6} DB              runs one query, prints its rows
"""
import datetime
import random
import sqlite3
import sys

START = datetime.date(1992, 1, 1)
END = datetime.date(1998, 12, 31)
CURRENT = datetime.date(1995, 6, 17)
PRIORITIES = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"]
INSTRUCTIONS = ["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"]
MODES = ["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"]
WORDS = ("furiously quickly carefully slyly blithely final regular express special pending "
         "ironic bold even unusual silent idle deposits requests accounts packages theodolites "
         "instructions foxes pinto beans asymptotes dependencies sleep wake nag haggle cajole "
         "detect integrate boost among across above along").split()

# TPC-D's schema for the two tables (clause 1.4); the primary keys as its clause 1.4.2 names
# them. LINEITEM is clustered on its key (WITHOUT ROWID), as it is loaded in order-key order.
SCHEMA = """
CREATE TABLE orders (
  o_orderkey INTEGER PRIMARY KEY, o_custkey INTEGER, o_orderstatus TEXT,
  o_totalprice REAL, o_orderdate TEXT, o_orderpriority TEXT, o_clerk TEXT,
  o_shippriority INTEGER, o_comment TEXT);
CREATE TABLE lineitem (
  l_orderkey INTEGER, l_partkey INTEGER, l_suppkey INTEGER, l_linenumber INTEGER,
  l_quantity REAL, l_extendedprice REAL, l_discount REAL, l_tax REAL,
  l_returnflag TEXT, l_linestatus TEXT, l_shipdate TEXT, l_commitdate TEXT,
  l_receiptdate TEXT, l_shipinstruct TEXT, l_shipmode TEXT, l_comment TEXT,
  PRIMARY KEY (l_orderkey, l_linenumber)) WITHOUT ROWID;
"""

# TPC-D query 4 (order priority checking) and query 6 (forecasting revenue change), with
# the specification's validation parameters: Q4 DATE = 1993-07-01; Q6 DATE = 1994-01-01,
# DISCOUNT = 0.06, QUANTITY = 24.
QUERIES = {
    "4": """
SELECT o_orderpriority, COUNT(*) AS order_count FROM orders
WHERE o_orderdate >= '1993-07-01' AND o_orderdate < date('1993-07-01', '+3 months')
  AND EXISTS (SELECT * FROM lineitem
              WHERE l_orderkey = o_orderkey AND l_commitdate < l_receiptdate)
GROUP BY o_orderpriority ORDER BY o_orderpriority""",
    "6": """
SELECT SUM(l_extendedprice * l_discount) AS revenue FROM lineitem
WHERE l_shipdate >= '1994-01-01' AND l_shipdate < date('1994-01-01', '+1 year')
  AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24""",
}


def text(rng, low, high):
    """Random words, cut to a length uniform in [low, high] (dbgen's comment lengths)."""
    n = rng.randint(low, high)
    s = ""
    while len(s) < n:
        s += rng.choice(WORDS) + " "
    return s[:n]


def retail_price(partkey):
    """P_RETAILPRICE, clause 4.2.3: what L_EXTENDEDPRICE multiplies."""
    return (90000 + (partkey // 10) % 20001 + 100 * (partkey % 1000)) / 100


def rows(scale, rng):
    """Yields (order, [line items]) for every order, in order-key order."""
    orders = int(1_500_000 * scale)
    parts, suppliers = int(200_000 * scale), int(10_000 * scale)
    customers, clerks = int(150_000 * scale), max(1, int(1000 * scale))
    days = (END - START).days - 151
    for i in range(orders):
        key = (i // 8) * 32 + i % 8 + 1
        odate = START + datetime.timedelta(days=rng.randint(0, days))
        custkey = rng.randint(1, customers)
        while custkey % 3 == 0:  # a third of the customers place no orders
            custkey = rng.randint(1, customers)
        lines, total = [], 0.0
        for n in range(1, rng.randint(1, 7) + 1):
            partkey = rng.randint(1, parts)
            qty = rng.randint(1, 50)
            price = round(qty * retail_price(partkey), 2)
            disc, tax = rng.randint(0, 10) / 100, rng.randint(0, 8) / 100
            ship = odate + datetime.timedelta(days=rng.randint(1, 121))
            commit = odate + datetime.timedelta(days=rng.randint(30, 90))
            receipt = ship + datetime.timedelta(days=rng.randint(1, 30))
            flag = rng.choice("RA") if receipt <= CURRENT else "N"
            status = "O" if ship > CURRENT else "F"
            supp = (partkey + rng.randint(0, 3) * (suppliers // 4 + (partkey - 1) // suppliers)) \
                % suppliers + 1
            lines.append((key, partkey, supp, n, qty, price, disc, tax, flag, status,
                          ship.isoformat(), commit.isoformat(), receipt.isoformat(),
                          rng.choice(INSTRUCTIONS), rng.choice(MODES), text(rng, 10, 43)))
            total += price * (1 + tax) * (1 - disc)
        statuses = {line[9] for line in lines}
        ostatus = "F" if statuses == {"F"} else "O" if statuses == {"O"} else "P"
        yield ((key, custkey, ostatus, round(total, 2), odate.isoformat(),
                rng.choice(PRIORITIES), f"Clerk#{rng.randint(1, clerks):09d}", 0,
                text(rng, 19, 78)), lines)


def generate(scale, path):
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 4096")  # the file system's block
    db.executescript(SCHEMA)
    rng = random.Random(3)  # fixed: every run queries the same data
    for order, lines in rows(scale, rng):
        db.execute("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?)", order)
        db.executemany("INSERT INTO lineitem VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", lines)
    db.commit()
    db.execute("VACUUM")  # pages in key order, as a bulk load leaves them
    db.close()


def query(which, path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    for row in db.execute(QUERIES[which]):
        print(*row, sep="|")


def main(argv):
    if len(argv) == 4 and argv[0] == "generate" and argv[1] == "--scale":
        generate(float(argv[2]), argv[3])
    elif len(argv) == 3 and argv[0] == "query" and argv[1] in QUERIES:
        query(argv[1], argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
