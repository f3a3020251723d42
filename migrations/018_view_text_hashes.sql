-- allot index, schema 18: an own view (signature, body, docstring, window) records a hash of its text
-- (indexer/store/view-texts.ts `textHash`), so a file's rewrite (a branch switch, an edit) tells which of its views
-- keep their full-text rows without rebuilding their old texts from the old file; only the rows that go need them
-- (contentless FTS5 deletes a row given the values it was inserted with). NULL for derived views and for views
-- written before this schema: the writer then rebuilds the text and hashes it.
ALTER TABLE views ADD COLUMN text_hash INTEGER;
