export const metadata = { title: "Cards" };

export default function CardsPage() {
  return (
    <>
      <h1>Cards</h1>
      <p className="muted">Pending permission prompts from your agents will appear here. This part of the cockpit is not built yet.</p>
    </>
  );
}
