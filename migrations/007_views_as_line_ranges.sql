-- allot index, schema 7: the text of the source is stored once, deflated, and views are line ranges of it.
-- File texts move to `file_blobs` (raw deflate, indexer/store/file-text.ts); `file_texts` becomes a view that
-- inflates them (`allot_unpack`, registered on every connection by openStore), so its readers are unchanged.
CREATE TABLE file_blobs (
  file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  data    BLOB NOT NULL
);
INSERT INTO file_blobs (file_id, data) SELECT file_id, allot_pack(text) FROM file_texts;
DROP TABLE file_texts;
CREATE VIEW file_texts AS SELECT file_id, allot_unpack(data) AS text FROM file_blobs;

-- Views are line ranges of the file texts, not copies. An own view's text (signature, body,
-- docstring, window) is rebuilt from its file's lines and its object (indexer/extract/view-text.ts); only a
-- derived view (a call site, import or test reference: one trimmed line of another file, at most 240 characters)
-- keeps its text, so deleting it from the full-text index needs no other file. Token counts are taken when a view
-- is read. A 1 MB one-line file held 1.94 GB of view text; SymPy's views held 36 MB for 30 MB of source.
CREATE TABLE views_new (
  id         INTEGER PRIMARY KEY,
  object_id  TEXT NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
  file_id    INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  derived    INTEGER NOT NULL DEFAULT 0,
  start_line INTEGER NOT NULL,
  end_line   INTEGER NOT NULL,
  text       TEXT                            -- derived views only
);
INSERT INTO views_new (id, object_id, file_id, kind, derived, start_line, end_line, text)
SELECT id, object_id, file_id, kind, derived, start_line, end_line, CASE WHEN derived = 1 THEN text END FROM views;
DROP TABLE views;
ALTER TABLE views_new RENAME TO views;
CREATE INDEX views_object ON views(object_id);
CREATE INDEX views_file ON views(file_id);
-- The full-text rows are rebuilt from the views' texts as this code reads them.
DELETE FROM state WHERE key = 'fts_layout';

-- Only resolved references are looked up by target: the index leaves out the unresolved third.
DROP INDEX refs_target;
CREATE INDEX refs_target ON refs(target_id) WHERE target_id IS NOT NULL;
