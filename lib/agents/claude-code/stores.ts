import { settingsStores } from "../shared/settings-stores";
import { info } from "./info";

/** Its settings files (`settingsFiles` in its catalogue entry), read and edited in place by lib/stores. */
export const stores = settingsStores(info.id);
