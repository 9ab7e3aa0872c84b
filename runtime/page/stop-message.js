// What the learner is told about code that was stopped: by the time limit or by Stop, and how it
// ended (interrupted at a line, caught the interrupt, busy, slow to report, stopped answering, ended).

// reason: "timeout" | "stopped"; line: where Python was interrupted, if known; how: a key below;
// printed: whether the code printed past the output cap (then printing took time too).
export function stopMessage({ reason, timeLimitMs, line, how, printed = false }) {
  const at = line ? ` at line ${line}` : "";
  const what =
    reason === "stopped" ? "You stopped your code" : `Your code ran for more than ${timeLimitMs / 1000} s and was stopped`;
  const hint =
    reason === "stopped"
      ? ""
      : printed
        ? " It printed more than the page keeps: printing that much takes time too, so print less."
        : " Does a loop never end, or does the search revisit values it has already seen?";
  return {
    interrupted: `${what}${at}.${hint}`,
    caught: `${what}: it caught the KeyboardInterrupt and carried on, so its runtime was ended.${hint}`,
    finished: `${what}: it caught the KeyboardInterrupt and carried on to the end, so it does not count.${hint}`,
    slow: `${what}. Python stopped it, but did not finish writing the report in time, so its runtime was ended.${hint}`,
    busy: `${what}: it was busy in one long operation that cannot be interrupted, so its runtime was ended.${hint}`,
    died: `${what}, and its runtime stopped answering (it may have run out of memory), so it was ended.${hint}`,
    ended: `${what}. This page cannot interrupt Python (it is not cross-origin isolated), so its runtime was ended and the line it was running is not known.${hint}`,
  }[how];
}
