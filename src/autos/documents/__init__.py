"""One typed context per document kind, with its pt-BR wording."""
