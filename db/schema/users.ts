import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

/** People who sign in to the cockpit: the owner, and collaborators who accepted an invite. */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  isOwner: boolean("is_owner").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** Set when an admin removed the collaborator; the row stays so audit rows keep a name. */
  removedAt: timestamp("removed_at", { withTimezone: true }),
  invitedBy: text("invited_by"),
});

export type MembershipRole = "viewer" | "approver" | "admin";

/** A collaborator's role in one workspace, or in every workspace (`workspace_id` null). */
export const memberships = pgTable(
  "memberships",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    role: text("role").$type<MembershipRole>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("memberships_user_id_idx").on(t.userId), index("memberships_workspace_id_idx").on(t.workspaceId)],
);

/** Single-use invite links: only the SHA-256 of the token is stored. */
export const invites = pgTable(
  "invites",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    role: text("role").$type<MembershipRole>().notNull(),
    /** Workspace ids, or "all". */
    workspaces: jsonb("workspaces").$type<string[] | "all">().notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    usedBy: text("used_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("invites_expires_at_idx").on(t.expiresAt)],
);

/** One-time login links: only the SHA-256 of the token is stored. */
export const loginTokens = pgTable(
  "login_tokens",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** "link" (the CLI's owner login link) or "pair" (Settings → Pair my phone, 10 minutes). */
    purpose: text("purpose").notNull().default("link"),
  },
  (t) => [index("login_tokens_user_id_idx").on(t.userId)],
);

/** Browser sessions; the cookie carries the token, the table its hash. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    userAgent: text("user_agent"),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** How the session signed in: link, invite, pair, passkey. */
    signIn: text("sign_in").notNull().default("link"),
    endedBy: text("ended_by"),
    /** Last passkey confirmation in this session (step-up for sensitive changes). */
    steppedUpAt: timestamp("stepped_up_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

/** A person's registered passkeys (WebAuthn credentials). */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The credential's public key, base64url (COSE). */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").$type<string[]>().notNull().default([]),
    deviceType: text("device_type"),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** The session that registered it: every other session of the person is told, and may remove it (issue 18). */
    registeredSessionId: text("registered_session_id"),
  },
  (t) => [index("passkeys_user_id_idx").on(t.userId)],
);

/** WebAuthn challenges kept server-side: single use, five minutes. */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: text("id").primaryKey(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("webauthn_challenges_challenge_idx").on(t.challenge)],
);
