-- Makes the MongoDB indexes we declare serve FerretDB's reads. Applied by infra.sh on every 'up'
-- to FerretDB's PostgreSQL database; idempotent.
--
-- FerretDB 1.24 pushes a top-level equality filter down as jsonb containment,
--   _jsonb -> 'field' @> '"value"'        (a dotted field: _jsonb #> '{a,b}' @> ...)
-- while the indexes it creates for MongoDB index declarations are btree indexes on
-- _jsonb -> 'field', which cannot serve @>: without this every read is a sequential scan of the
-- collection. An event trigger gives each field of every index FerretDB creates a GIN index on the
-- very expression its queries use (one per field and table, shared by the indexes naming it).
-- The GIN indexes belong to the table: dropping the collection drops them; a dropped MongoDB index
-- leaves its fields' GIN indexes in place.

-- FerretDB sends prepared statements whose field names are parameters (_jsonb->$1 @> $2): only a
-- plan made for the actual values (a custom plan) matches an expression index. Taken by new
-- connections; FerretDB's pool opens them as it needs.
SET client_min_messages = warning;
ALTER DATABASE ferretdb SET plan_cache_mode = force_custom_plan;

CREATE OR REPLACE FUNCTION cmsg_gin_companions(index_oid oid) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  table_oid oid;
  key_count int;
  access_method text;
  table_ident text;
  table_name text;
  column_index int;
  keys text[];
  query_expression text;
BEGIN
  SELECT i.indrelid, i.indnkeyatts, a.amname INTO table_oid, key_count, access_method
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
  WHERE i.indexrelid = index_oid;
  IF NOT FOUND OR access_method <> 'btree' THEN RETURN; END IF;
  SELECT c.relname, format('%I.%I', n.nspname, c.relname) INTO table_name, table_ident
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = table_oid;
  IF table_name LIKE '\_ferretdb\_%' THEN RETURN; END IF;
  FOR column_index IN 1..key_count LOOP
    -- FerretDB's key expressions: (_jsonb -> 'f'::text), ((_jsonb -> 'a'::text) -> 'b'::text)
    SELECT array_agg(m[1]) INTO keys
    FROM regexp_matches(pg_get_indexdef(index_oid, column_index, false), '''([^'']*)''::text', 'g') AS m;
    CONTINUE WHEN keys IS NULL OR pg_get_indexdef(index_oid, column_index, false) !~ '^\(*_jsonb ';
    IF array_length(keys, 1) = 1 THEN
      query_expression := format('(_jsonb -> %L::text)', keys[1]);
    ELSE
      query_expression := format('(_jsonb #> %L::text[])', '{' || array_to_string(keys, ',') || '}');
    END IF;
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s USING gin (%s jsonb_path_ops)',
      'cmsg_gin_' || md5(table_oid::text || query_expression), table_ident, query_expression);
  END LOOP;
EXCEPTION WHEN OTHERS THEN
  -- A companion is an optimisation: never fail FerretDB's own DDL because of it.
  RAISE WARNING 'cmsg_gin_companions(%): %', index_oid, SQLERRM;
END
$fn$;

CREATE OR REPLACE FUNCTION cmsg_gin_companions_on_ddl() RETURNS event_trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  command record;
BEGIN
  FOR command IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE INDEX' LOOP
    PERFORM cmsg_gin_companions(command.objid);
  END LOOP;
END
$fn$;

DROP EVENT TRIGGER IF EXISTS cmsg_gin_companions;
CREATE EVENT TRIGGER cmsg_gin_companions ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION cmsg_gin_companions_on_ddl();

-- Indexes FerretDB created before the trigger existed (a data directory from an older 'up').
SELECT cmsg_gin_companions(i.indexrelid)
FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
  AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = c.oid AND attname = '_jsonb');
