"""A bare TCP server in the test's own process, on loopback, for peers that answer as a test says: a
key server that trickles, a proxy, an LMS that never answers."""

import socket
import threading


class Loopback:
    """Listens on 127.0.0.1 (a free port) and answers each connection in a thread of its own, as a
    subclass's answer() says, until stop()."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:  # stopped
                return
            threading.Thread(target=self.answer, args=(conn,), daemon=True).start()

    def answer(self, conn: socket.socket) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        self.listener.close()
