export const metadata = { title: "Audit" };

export default function AuditPage() {
  return (
    <>
      <h1>Audit</h1>
      <p className="muted">
        A searchable log of every decision, answer and edit will be shown here. This part of the cockpit is not built
        yet.
      </p>
    </>
  );
}
