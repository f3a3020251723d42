-- allot index, schema 6: the full-text index keeps BM25's statistics exact. A `contentless_delete = 1` table
-- deletes a row by its rowid but keeps counting it in the row count and column lengths BM25 normalises by (after
-- seven checkouts of Django it counted 861,679 rows for 130,321 views), so rankings drifted from a fresh index's
-- and never recovered. A plain contentless table deletes a row with the 'delete' command given the values it was
-- inserted with (indexer/store/fts.ts), which takes the row out of the statistics too.
-- The table is recreated empty; opening the store rebuilds its rows from the views (state.fts_layout is unset).
DROP TABLE views_fts;
CREATE VIRTUAL TABLE views_fts USING fts5(
  name, text, parts,
  content = '',
  tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
);
DELETE FROM state WHERE key = 'fts_layout';
