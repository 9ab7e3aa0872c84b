"""The page contract as JSON Schemas, published at <prefix>/schema/<name>.json (docs/page-contract.md).

The report, a Run and the events (engine/report.py's) and a line of the records' export
(server/records/export.py's): above the page and the records, whose facts it reads.
"""
