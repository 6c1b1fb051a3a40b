/** The card queue: admission, exactly-once settlement, coalescing, absence expiry, long-polls and the change bus. */
export { admitCard, AdmitCardInput, type AdmitResult, type ImmediateDecision } from "./admit-card";
export { getCard, getCardRow, getCardRowUnchecked, getCardUnchecked } from "./get-card";
export { listCards, ListCardsInput } from "./list-cards";
export { countPendingCards } from "./count-pending-cards";
export { settleCard, SettleCardInput, ANSWER_CLIENTS, type SettleCardResult } from "./settle-card";
export { markDisplayed } from "./mark-displayed";
export { abortCard, ABORT_MESSAGE } from "./abort-card";
export { expireAbsentQueues } from "./expire-absent-queues";
export { userMessage } from "./user-message";
export { waitForSettlement, MAX_WAIT_SECONDS, type CardOutcome } from "./wait-for-settlement";
export { coalesceSiblings } from "./coalesce-siblings";
export { absenceTimeout, setAbsenceTimeout, AbsenceSetting, ABSENCE_REASON } from "./absence";
export { publishCardChange, subscribeCardChanges, connectPgBus, type CardChange } from "./bus";
export { CardView, toCardView } from "./view";
export { CARD_AGENTS, type CardEnv } from "./policy";
export { listRootSessions, type RootSessionView } from "./list-sessions";
