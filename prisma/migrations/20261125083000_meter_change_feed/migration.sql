-- API processes keep the meters that quantities requests read in memory (domain/meters/cache.ts)
-- and forget one when it is notified here: a meter whose filter or aggregation changed, or that
-- was deleted (its organization's deletion cascades row by row), is read again at the commit.
--
-- Semicolons inside the function's body are spelled \x3B: the migration runner splits a script at
-- every semicolon, quoted or not (see migration access_token_change_feed).
CREATE FUNCTION notify_meter_change() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    PERFORM pg_notify(''tollgate_meters'', ''*'')\x3B
  ELSE
    PERFORM pg_notify(''tollgate_meters'', OLD.id::text)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER meters_changed
  AFTER UPDATE OR DELETE ON "meters"
  FOR EACH ROW EXECUTE FUNCTION notify_meter_change();

CREATE TRIGGER meters_truncated
  AFTER TRUNCATE ON "meters"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_meter_change();
