-- allot index, schema 15: branch switches cost what changed.

-- What extraction made of a file's content (objects, views as line ranges, references, limits, warnings), keyed by
-- the content hash and the language the file's name asked for, so a content indexed before (on another branch,
-- under another path) is restored without parsing (indexer/extract/reuse.ts, indexer/store/extraction-cache.ts).
-- Rows outlive the files they came from; the least recently used go once the total passes the bound
-- (state.extraction_cache_max_bytes). state.extraction_cache_extractor names the extraction code that made the
-- rows: when the code changes, the rows go.
CREATE TABLE extractions (
  id       INTEGER PRIMARY KEY,
  hash     TEXT NOT NULL,
  language TEXT NOT NULL,
  data     BLOB NOT NULL,            -- deflated JSON
  bytes    INTEGER NOT NULL,         -- length of data: what the bound counts
  used     INTEGER NOT NULL,         -- the cache's clock when it was last written or restored
  UNIQUE (hash, language)
);
CREATE INDEX extractions_used ON extractions(used);

-- Resolution catches up with what changed instead of re-resolving the whole store: every file write records, in
-- its transaction, the paths it changed ('path'), the names of objects that appeared, went or changed ('name'),
-- and the objects whose derived views left with the old rows ('target'). The resolution pass reads them and
-- empties the table in its own transaction (indexer/store/resolution.ts). `state.resolution_dirty` stays the flag;
-- dirty with nothing recorded here (an index from before this schema) means a whole pass.
CREATE TABLE resolution_pending (
  kind TEXT NOT NULL,                -- path | name | target
  key  TEXT NOT NULL,
  PRIMARY KEY (kind, key)
) WITHOUT ROWID;

-- A digest of what each file's imports bound at the last resolution pass (the resolver's bindings and wildcard
-- sources): a file whose digest changed has its other references resolved again.
ALTER TABLE files ADD COLUMN bindings TEXT;
