import { EXAMPLE_AGENT } from "@/lib/agents";
import styles from "./cards.module.css";

/** No pending cards: say so, and how to get some. */
export function EmptyState() {
  return (
    <div className={`card ${styles.empty}`} data-testid="cards-empty">
      <strong>Nothing is waiting for you.</strong>
      <p className="muted" style={{ margin: "0.4rem 0" }}>
        When an agent asks for permission, its prompt appears here at once — no reload needed. To connect an agent:
      </p>
      <ol>
        <li>
          Create a token for the workspace: <code>npx cockpit agent-token create --workspace DIR</code> (or in
          Settings).
        </li>
        <li>
          Hook {EXAMPLE_AGENT.label} up to the cockpit:{" "}
          <code>npx cockpit connect {EXAMPLE_AGENT.id} --workspace DIR</code>.
        </li>
        <li>
          Or just try it: <code>npm run demo</code> starts a simulated agent that keeps asking.
        </li>
      </ol>
    </div>
  );
}
