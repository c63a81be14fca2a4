-- API processes keep the access tokens they authenticated in memory (domain/access-tokens/cache.ts)
-- and forget one when it is notified here: a revoked, rescoped or deleted token (its organization's
-- deletion cascades row by row) stops working on every process at the commit, not at a timeout.
-- Recording a token's last use changes none of the listed columns and notifies nobody.
--
-- The migration runner (the Prisma adapter's executeScript) splits a script at every semicolon,
-- quoted or not, so the function's body spells its semicolons as the escape \x3B.
CREATE FUNCTION notify_access_token_change() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''TRUNCATE'' THEN
    PERFORM pg_notify(''tollgate_access_tokens'', ''*'')\x3B
  ELSE
    PERFORM pg_notify(''tollgate_access_tokens'', OLD.token_hash)\x3B
  END IF\x3B
  RETURN NULL\x3B
END\x3B
';

CREATE TRIGGER organization_access_tokens_changed
  AFTER UPDATE OF organization_id, token_hash, scopes, expires_at OR DELETE ON "organization_access_tokens"
  FOR EACH ROW EXECUTE FUNCTION notify_access_token_change();

CREATE TRIGGER organization_access_tokens_truncated
  AFTER TRUNCATE ON "organization_access_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_token_change();
