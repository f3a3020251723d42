-- allot index, schema 8: the full-text index has one column per field (name, signature, docstring, body, derived
-- views, identifier parts, and `aside` for rows of test, example and documentation files), so BM25 weighs each
-- field at query time, and stems English words (porter). The table is recreated empty; opening the store rebuilds
-- its rows from the views (state.fts_layout is unset). See indexer/store/fts.ts.
DROP TABLE views_fts;
CREATE VIRTUAL TABLE views_fts USING fts5(
  name, signature, docstring, body, derived, parts, aside,
  content = '',
  tokenize = "porter unicode61 remove_diacritics 2 tokenchars '_'"
);
DELETE FROM state WHERE key = 'fts_layout';
