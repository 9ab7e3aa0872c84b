// What the learner is told about code that was stopped: by the time limit or by Stop, and how it
// ended (interrupted at a line, caught the interrupt, busy, slow to report, stopped answering, ended).

// reason: "timeout" | "stopped"; line: where Python was interrupted, if known; how: a key below;
// printed: whether the code printed past the output cap (then printing took time too); words: the
// page's { t, number }.
export function stopMessage({ reason, timeLimitMs, line, how, printed = false }, { t, number }) {
  const seconds = number(timeLimitMs / 1000);
  const what = reason === "stopped" ? t("You stopped your code") : t("Your code ran for more than {seconds} s and was stopped", { seconds });
  const where = line ? t("{what} at line {line}", { what, line: number(line) }) : what;
  const hint =
    reason === "stopped"
      ? ""
      : " " +
        (printed
          ? t("It printed more than the page keeps: printing that much takes time too, so print less.")
          : t("Does a loop never end, or does the search revisit values it has already seen?"));
  const said = {
    interrupted: t("{what}.", { what: where }),
    caught: t("{what}: it caught the KeyboardInterrupt and carried on, so its runtime was ended.", { what }),
    finished: t("{what}: it caught the KeyboardInterrupt and carried on to the end, so it does not count.", { what }),
    slow: t("{what}. Python stopped it, but did not finish writing the report in time, so its runtime was ended.", { what }),
    busy: t("{what}: it was busy in one long operation that cannot be interrupted, so its runtime was ended.", { what }),
    died: t("{what}, and its runtime stopped answering (it may have run out of memory), so it was ended.", { what }),
    ended: t(
      "{what}. This page cannot interrupt Python (it is not cross-origin isolated), so its runtime was ended and the line it was running is not known.",
      { what },
    ),
  }[how];
  return said === undefined ? undefined : said + hint;
}
