// A task's button while the task runs (Check, Run): disabled and saying what it does, its Stop shown;
// all as it was once the task ends, however it ends.

// Run task(waiting) with button busy; waiting() says the task waits for Python. Resolves as task does.
export async function whileBusy({ button, stop, idle, doing }, task) {
  button.disabled = true;
  button.textContent = doing;
  stop.hidden = false;
  try {
    return await task(() => (button.textContent = "Waiting for Python…"));
  } finally {
    button.disabled = false;
    button.textContent = idle;
    stop.hidden = true;
  }
}
