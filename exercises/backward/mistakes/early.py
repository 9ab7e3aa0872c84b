from collections import deque


def backward(out):
    out.grad = 1
    queue, seen = deque([out]), {out}
    while queue:
        v = queue.popleft()
        v._backward()
        for child in v._prev:
            if child not in seen:
                seen.add(child)
                queue.append(child)
