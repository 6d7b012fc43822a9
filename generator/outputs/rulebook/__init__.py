"""The printable rulebook: every rulebook page of a game as a PDF, full page and booklet."""
