"""The DuckDB store: connect and lock, migrations, SQL files, every write, the run registry,
the judge reply cache and the SQL functions. The only room that opens the file for writing."""
