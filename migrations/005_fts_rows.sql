-- allot index, schema 5: full-text rows are deleted by the store's code (indexer/store/fts.ts), like they are
-- inserted, so one module decides what a view's row holds; the trigger that deleted them goes.
DROP TRIGGER IF EXISTS views_fts_delete;
