/** Query options of Settings → people, invites, sessions and passkeys: one place, one key prefix per list. */
import { queryOptions } from "@tanstack/react-query";
import { fetchCollaborators, fetchDevices, fetchInvites, fetchPasskeys, unwrap } from "@/lib/client/api";

export const settingsKeys = {
  people: ["settings", "people"] as const,
  invites: ["settings", "invites"] as const,
  devices: ["settings", "devices"] as const,
  passkeys: ["settings", "passkeys"] as const,
};

export const peopleQuery = () =>
  queryOptions({
    queryKey: settingsKeys.people,
    queryFn: async () => (await unwrap(fetchCollaborators())).collaborators,
  });
export const invitesQuery = () =>
  queryOptions({ queryKey: settingsKeys.invites, queryFn: async () => (await unwrap(fetchInvites())).invites });
export const devicesQuery = () =>
  queryOptions({ queryKey: settingsKeys.devices, queryFn: async () => (await unwrap(fetchDevices())).sessions });
export const passkeysQuery = () =>
  queryOptions({ queryKey: settingsKeys.passkeys, queryFn: async () => (await unwrap(fetchPasskeys())).passkeys });
