"""A learner's line for the benchmark: TCP relays that pass every byte through one slow, distant link.

Chromium's own emulation (CDP Network.emulateNetworkConditions on the page) throttles the page and its
dedicated workers on one shared line, but not a service worker's fetches (checked in Chromium 156:
2 MB at an emulated 500 kB/s took 26 ms from a service worker), so a page with one would load partly
off the line. A relay sits below the browser: every connection to a site's relay port, whichever
part of the browser opens it, shares the link. Each direction is a queue of `rate` bytes a second,
delivered half a round trip after it leaves; connections take turns by 16 kB chunk (as TCP flows
share a bottleneck, roughly); a new connection costs one round trip first (TCP's handshake; no TLS,
no slow start).
"""

import asyncio
import threading

CHUNK = 16 * 1024
AHEAD = 0.02  # s: how far ahead of the link a connection may queue (the link never idles while busy)
Reader, Writer = asyncio.StreamReader, asyncio.StreamWriter


class Link:
    """One direction of the line: bytes leave one after another at rate, arrive delay later."""

    def __init__(self, rate: float, delay: float) -> None:
        self.rate, self.delay = rate, delay
        self.free_at = 0.0  # when the link has sent everything queued so far

    def send(self, size: int, now: float) -> tuple[float, float]:
        """Queue size bytes; return when they have left and when they arrive."""
        self.free_at = max(self.free_at, now) + size / self.rate
        return self.free_at, self.free_at + self.delay


class Line:
    """A link each way between the browser and every relayed site, run on its own event loop."""

    def __init__(self, rate: float, rtt: float) -> None:
        self.rate, self.rtt = rate, rtt
        self.down, self.up = Link(rate, rtt / 2), Link(rate, rtt / 2)
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def relay(self, port: int) -> int:
        """Listen on a free port of 127.0.0.1 and relay each connection to port over the line."""

        async def start() -> int:
            server = await asyncio.start_server(lambda r, w: self.connect(r, w, port), "127.0.0.1", 0)
            return server.sockets[0].getsockname()[1]

        return asyncio.run_coroutine_threadsafe(start(), self.loop).result()

    async def connect(
        self, browser_in: asyncio.StreamReader, browser_out: asyncio.StreamWriter, port: int
    ) -> None:
        try:
            await asyncio.sleep(self.rtt)  # the handshake's round trip
            site_in, site_out = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            browser_out.close()
            return
        await asyncio.gather(
            self.pump(browser_in, site_out, self.up), self.pump(site_in, browser_out, self.down)
        )

    async def pump(self, source: Reader, sink: Writer, link: Link) -> None:
        """Carry bytes from source to sink over link, in order; close sink after the last."""
        loop = asyncio.get_running_loop()
        arrivals: asyncio.Queue = asyncio.Queue()

        async def deliver() -> None:
            while (item := await arrivals.get()) is not None:
                at, data = item
                await asyncio.sleep(max(0.0, at - loop.time()))
                sink.write(data)
                await sink.drain()

        delivering = asyncio.create_task(deliver())
        try:
            while data := await source.read(CHUNK):
                sent, arrives = link.send(len(data), loop.time())
                arrivals.put_nowait((arrives, data))
                await asyncio.sleep(max(0.0, sent - AHEAD - loop.time()))  # the next chunk waits its turn
        except OSError:
            pass
        finally:
            arrivals.put_nowait(None)
            try:
                await delivering
            except OSError:
                pass
            sink.close()
