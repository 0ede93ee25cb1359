"""Tools of the SQL agent cases (read by the compiler, never run by these tests)."""


def list_tables() -> str:
    """List the tables of the database, comma-separated."""
    return ""


def run_query(query: str) -> str:
    """Run one read-only SQL query and return its rows.

    Only SELECT statements are allowed.
    """
    return query
