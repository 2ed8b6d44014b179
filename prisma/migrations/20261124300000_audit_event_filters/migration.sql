-- The administrators' listing of audit events filters by the user's name (kept when the user
-- is deleted) and by an object's number (kept when the object is deleted), newest first.
CREATE INDEX "audit_events_user_name_idx" ON "audit_events"("user_name", "id");
CREATE INDEX "audit_events_object_number_idx" ON "audit_events"("object_number", "id");
