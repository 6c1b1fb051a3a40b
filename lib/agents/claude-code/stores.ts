import { settingsStores } from "../shared/settings-stores";
import { info } from "./info";

/** Its settings files, read and edited in place by lib/stores (locations: lib/stores/discover.ts). */
export const stores = settingsStores(info.id);
