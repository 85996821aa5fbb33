// One request at a time from a panel: `run` marks it busy, clears the last error, and keeps the
// server's refusal as the error to show.
import { useState } from "preact/hooks";

export function useBusy(): { busy: boolean; error: string | null; run: (step: () => Promise<unknown>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(step: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}
