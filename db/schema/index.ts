// Every table, one file per entity; drizzle-kit reads this folder.
export * from "./users";
export * from "./workspaces";
export * from "./audit";
export * from "./settings";
export * from "./agent-tokens";
export * from "./session-entries";
export * from "./cards";
export * from "./notify";
