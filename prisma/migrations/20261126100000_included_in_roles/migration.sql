-- wt.change2.IncludedIn2 links a change order (role A) to a change activity (role B), as in
-- Windchill: the catalog had the roles the other way round. The links stored so far (their soft
-- types keep the class, and classes users declared below it without roles of their own inherit
-- its roles) swap their ends, so they read as the catalog now says. No pair can meet its own
-- reverse: one end is always an order, the other an activity.
WITH RECURSIVE included (name) AS (
  SELECT 'wt.change2.IncludedIn2'::text
  UNION
  SELECT t.name FROM "catalog_types" t JOIN included i ON t.spec ->> 'parent' = i.name
  WHERE t.kind = 'class' AND t.spec -> 'roles' IS NULL
)
UPDATE "links" SET "role_a_id" = "role_b_id", "role_b_id" = "role_a_id"
WHERE "class" IN (SELECT name FROM included);
