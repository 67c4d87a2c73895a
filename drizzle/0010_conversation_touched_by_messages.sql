-- A conversation's updated_at follows its latest message (one statement per message instead of two).
CREATE FUNCTION conversation_touched() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversations SET updated_at = NEW.created_at WHERE id = NEW.conversation_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER messages_touch_conversation AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION conversation_touched();
