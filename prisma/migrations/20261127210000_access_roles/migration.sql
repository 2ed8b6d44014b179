-- Each user's effective role per container, read by every permission check in one statement:
-- the highest (reader < author < manager) of their own membership and the roles of every group
-- they are in, directly or through nested groups. Kept by the triggers below, so a change of a
-- membership, a group's users, its nested groups or its roles is seen by the next statement.
CREATE TABLE "access_roles" (
    "user_id" INTEGER NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
    "container_id" INTEGER NOT NULL REFERENCES "containers" ("id") ON DELETE CASCADE,
    "role" "member_role" NOT NULL,
    PRIMARY KEY ("user_id", "container_id")
);
CREATE INDEX "access_roles_container_id_idx" ON "access_roles" ("container_id");

INSERT INTO "access_roles" ("user_id", "container_id", "role")
    SELECT "user_id", "container_id", "role" FROM "memberships";

-- The users in a group, directly or through its nested groups.
CREATE FUNCTION "group_all_users"(root INTEGER) RETURNS TABLE ("user_id" INTEGER) LANGUAGE sql STABLE AS E'
    WITH RECURSIVE sub(id) AS (
        SELECT root
        UNION
        SELECT gg.member_group_id FROM group_groups gg JOIN sub ON gg.group_id = sub.id
    )
    SELECT DISTINCT gu.user_id FROM group_users gu WHERE gu.group_id IN (SELECT id FROM sub)
';

-- Recomputes the rows of these users from memberships and groups, in one statement: rows no
-- longer granted are deleted, the others inserted or changed where they differ. Users and
-- containers being deleted in the same statement (their cascades run these triggers too) get no
-- rows. Serialised by the caller (access_roles_lock), so it reads what every earlier change
-- committed (a volatile function takes a new snapshot for each statement).
CREATE FUNCTION "access_roles_refresh"(ids INTEGER[]) RETURNS void LANGUAGE sql VOLATILE AS E'
    WITH RECURSIVE ug(user_id, group_id) AS (
        SELECT gu.user_id, gu.group_id FROM group_users gu WHERE gu.user_id = ANY(ids)
        UNION
        SELECT ug.user_id, gg.group_id FROM ug JOIN group_groups gg ON gg.member_group_id = ug.group_id
    ), granted(user_id, container_id, role) AS (
        SELECT m.user_id, m.container_id, m.role FROM memberships m WHERE m.user_id = ANY(ids)
        UNION ALL
        SELECT ug.user_id, gm.container_id, gm.role FROM ug JOIN group_memberships gm ON gm.group_id = ug.group_id
    ), next AS (
        SELECT g.user_id, g.container_id, max(g.role) AS role FROM granted g
        WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = g.user_id)
          AND EXISTS (SELECT 1 FROM containers c WHERE c.id = g.container_id)
        GROUP BY g.user_id, g.container_id
    ), gone AS (
        DELETE FROM access_roles a WHERE a.user_id = ANY(ids) AND NOT EXISTS (
            SELECT 1 FROM next n WHERE n.user_id = a.user_id AND n.container_id = a.container_id)
    )
    INSERT INTO access_roles (user_id, container_id, role)
        SELECT user_id, container_id, role FROM next
    ON CONFLICT (user_id, container_id) DO UPDATE SET role = EXCLUDED.role
        WHERE access_roles.role IS DISTINCT FROM EXCLUDED.role
';

-- One transaction-long advisory lock for every change of who has which role: two changes made
-- at once (a user put into a group while the group is given a role) would otherwise each
-- recompute without the other and leave rows that neither state has. The cycle check of nested
-- groups runs under it too. The key is the hashtext of pdm.access_roles.
CREATE FUNCTION "access_roles_lock"() RETURNS void LANGUAGE sql AS E'
    SELECT pg_advisory_xact_lock(hashtext(''pdm.access_roles''))
';

CREATE FUNCTION "memberships_access_roles"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM access_roles_lock()\073
    IF TG_OP = ''DELETE'' THEN
        PERFORM access_roles_refresh(ARRAY[OLD.user_id])\073
    ELSIF TG_OP = ''UPDATE'' AND OLD.user_id <> NEW.user_id THEN
        PERFORM access_roles_refresh(ARRAY[OLD.user_id, NEW.user_id])\073
    ELSE
        PERFORM access_roles_refresh(ARRAY[NEW.user_id])\073
    END IF\073
    RETURN NULL\073
END
';

CREATE FUNCTION "group_users_access_roles"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM access_roles_lock()\073
    IF TG_OP = ''DELETE'' THEN
        PERFORM access_roles_refresh(ARRAY[OLD.user_id])\073
    ELSIF TG_OP = ''UPDATE'' AND OLD.user_id <> NEW.user_id THEN
        PERFORM access_roles_refresh(ARRAY[OLD.user_id, NEW.user_id])\073
    ELSE
        PERFORM access_roles_refresh(ARRAY[NEW.user_id])\073
    END IF\073
    RETURN NULL\073
END
';

-- A group's roles or nested groups changed: every user under the group (the member group of a
-- nesting) is recomputed.
CREATE FUNCTION "group_groups_access_roles"() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
    old_group INTEGER\073
    new_group INTEGER\073
BEGIN
    PERFORM access_roles_lock()\073
    IF TG_OP <> ''INSERT'' THEN
        old_group := OLD.member_group_id\073
    END IF\073
    IF TG_OP <> ''DELETE'' THEN
        new_group := NEW.member_group_id\073
    END IF\073
    PERFORM access_roles_refresh(ARRAY(
        SELECT user_id FROM group_all_users(old_group) UNION SELECT user_id FROM group_all_users(new_group)))\073
    RETURN NULL\073
END
';

CREATE FUNCTION "group_memberships_access_roles"() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
    old_group INTEGER\073
    new_group INTEGER\073
BEGIN
    PERFORM access_roles_lock()\073
    IF TG_OP <> ''INSERT'' THEN
        old_group := OLD.group_id\073
    END IF\073
    IF TG_OP <> ''DELETE'' THEN
        new_group := NEW.group_id\073
    END IF\073
    PERFORM access_roles_refresh(ARRAY(
        SELECT user_id FROM group_all_users(old_group) UNION SELECT user_id FROM group_all_users(new_group)))\073
    RETURN NULL\073
END
';

-- No cycles of nested groups: refused with SQLSTATE PDG01 and the chain that would close it
-- (group names, from the member group down to the group it would be put in).
CREATE FUNCTION "group_groups_no_cycle"() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
    chain TEXT\073
BEGIN
    PERFORM access_roles_lock()\073
    IF NEW.group_id = NEW.member_group_id OR NOT EXISTS (
        WITH RECURSIVE down(id) AS (
            SELECT NEW.member_group_id
            UNION
            SELECT gg.member_group_id FROM down JOIN group_groups gg ON gg.group_id = down.id
        )
        SELECT 1 FROM down WHERE id = NEW.group_id
    ) THEN
        RETURN NEW\073
    END IF\073
    WITH RECURSIVE down(id, path) AS (
        SELECT NEW.member_group_id, ARRAY[NEW.member_group_id]
        UNION ALL
        SELECT gg.member_group_id, down.path || gg.member_group_id
        FROM down JOIN group_groups gg ON gg.group_id = down.id
        WHERE down.id <> NEW.group_id AND NOT gg.member_group_id = ANY(down.path)
    )
    SELECT string_agg(g.name, '' > '' ORDER BY p.n) INTO chain
    FROM (SELECT path FROM down WHERE id = NEW.group_id LIMIT 1) d,
         unnest(d.path) WITH ORDINALITY AS p(id, n) JOIN groups g ON g.id = p.id\073
    RAISE EXCEPTION ''group cycle: % (each contains the next), so the first cannot be put into the last'', chain
        USING ERRCODE = ''PDG01''\073
END
';

CREATE TRIGGER "memberships_access_roles" AFTER INSERT OR UPDATE OR DELETE ON "memberships"
    FOR EACH ROW EXECUTE FUNCTION "memberships_access_roles"();
CREATE TRIGGER "group_users_access_roles" AFTER INSERT OR UPDATE OR DELETE ON "group_users"
    FOR EACH ROW EXECUTE FUNCTION "group_users_access_roles"();
CREATE TRIGGER "group_groups_access_roles" AFTER INSERT OR UPDATE OR DELETE ON "group_groups"
    FOR EACH ROW EXECUTE FUNCTION "group_groups_access_roles"();
CREATE TRIGGER "group_memberships_access_roles" AFTER INSERT OR UPDATE OR DELETE ON "group_memberships"
    FOR EACH ROW EXECUTE FUNCTION "group_memberships_access_roles"();
CREATE TRIGGER "group_groups_no_cycle" BEFORE INSERT OR UPDATE ON "group_groups"
    FOR EACH ROW EXECUTE FUNCTION "group_groups_no_cycle"();
