-- The references plain objects keep in props (a work item's primaryBusinessObject, an activity's
-- parentProcessRef, a group's organizationReference ...) are looked for when their target is
-- deleted, by containment of one key and value each (props @> '{"process": 17}'). jsonb_path_ops
-- indexes every key and value pair of props, so that lookup reads the index, not every object row.
CREATE INDEX "objects_props_idx" ON "objects" USING GIN ("props" jsonb_path_ops);
