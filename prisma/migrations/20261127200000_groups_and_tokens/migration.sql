-- Groups of users and of groups, their roles in containers, and personal access tokens.

CREATE TABLE "groups" (
    "id" SERIAL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "groups_name_key" ON "groups" ("name");

-- A user in a group. source: empty when an administrator put them there, else the OpenID Connect
-- issuer whose groups claim did (a later token of that issuer may take them out again).
CREATE TABLE "group_users" (
    "group_id" INTEGER NOT NULL REFERENCES "groups" ("id") ON DELETE CASCADE,
    "user_id" INTEGER NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
    "source" TEXT NOT NULL DEFAULT '',
    PRIMARY KEY ("group_id", "user_id")
);
CREATE INDEX "group_users_user_id_idx" ON "group_users" ("user_id");

-- A group in a group: the members of member_group_id are members of group_id. No cycles
-- (checked when an edge is added, under the lock that serialises changes of groups).
CREATE TABLE "group_groups" (
    "group_id" INTEGER NOT NULL REFERENCES "groups" ("id") ON DELETE CASCADE,
    "member_group_id" INTEGER NOT NULL REFERENCES "groups" ("id") ON DELETE CASCADE,
    PRIMARY KEY ("group_id", "member_group_id"),
    CONSTRAINT "group_groups_not_itself" CHECK ("group_id" <> "member_group_id")
);
CREATE INDEX "group_groups_member_group_id_idx" ON "group_groups" ("member_group_id");

-- A group's role in a container: every member of the group (directly or through nested groups)
-- has it there.
CREATE TABLE "group_memberships" (
    "container_id" INTEGER NOT NULL REFERENCES "containers" ("id") ON DELETE CASCADE,
    "group_id" INTEGER NOT NULL REFERENCES "groups" ("id") ON DELETE CASCADE,
    "role" "member_role" NOT NULL,
    PRIMARY KEY ("container_id", "group_id")
);
CREATE INDEX "group_memberships_group_id_idx" ON "group_memberships" ("group_id");

-- Personal access tokens. Only a SHA-256 of the token is kept (the token carries 256 random
-- bits, so a fast hash is enough), with its last characters to tell tokens apart in lists.
CREATE TABLE "access_tokens" (
    "id" SERIAL PRIMARY KEY,
    "user_id" INTEGER NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
    "name" TEXT NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "hint" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" INTEGER REFERENCES "users" ("id") ON DELETE SET NULL,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "access_tokens_secret_hash_key" ON "access_tokens" ("secret_hash");
CREATE INDEX "access_tokens_user_id_idx" ON "access_tokens" ("user_id");
-- A user's tokens in use have distinct names.
CREATE UNIQUE INDEX "access_tokens_user_name_key" ON "access_tokens" ("user_id", "name") WHERE "revoked_at" IS NULL;

-- On the channel pdm_auth (see 20261125300000_auth_notices): k<token id> when a token is revoked
-- or deleted, so every instance stops trusting its cached use at once.
CREATE FUNCTION "access_tokens_auth_notice"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM pg_notify(''pdm_auth'', ''k'' || OLD.id)\073
    RETURN NULL\073
END
';

CREATE TRIGGER "access_tokens_auth_notice_update" AFTER UPDATE ON "access_tokens" FOR EACH ROW
    WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
          OR OLD.scopes IS DISTINCT FROM NEW.scopes OR OLD.user_id IS DISTINCT FROM NEW.user_id
          OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash)
    EXECUTE FUNCTION "access_tokens_auth_notice"();

CREATE TRIGGER "access_tokens_auth_notice_delete" AFTER DELETE ON "access_tokens" FOR EACH ROW
    EXECUTE FUNCTION "access_tokens_auth_notice"();
