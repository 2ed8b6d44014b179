-- Opening a session writes one item row per match (a million for a million hits). The foreign
-- key to query_sessions cost a trigger call per row, more than the insert itself, so it goes:
-- items are written and deleted only by the query service, together with their session.
ALTER TABLE "query_session_items" DROP CONSTRAINT "query_session_items_session_id_fkey";
