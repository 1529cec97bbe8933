"""A maximum matching in a graph (Edmonds' blossom algorithm): who partners whom in the
individual movement, who can still meet whom in a Swiss round."""

from __future__ import annotations

from collections import deque


def _augment(adj: list[list[int]], match: list[int], root: int) -> bool:
    """Grows ``match`` by one augmenting path from the unmatched vertex ``root``, if one exists
    (the BFS form of Edmonds' algorithm, blossoms contracted through ``base``)."""
    n = len(adj)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def lowest_common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                current = lowest_common_base(v, to)
                blossom = [False] * n
                mark_path(v, current, to, blossom)
                mark_path(to, current, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:
                        via = parent[to]
                        after = match[via]
                        match[to], match[via] = via, to
                        to = after
                    return True
                used[match[to]] = True
                queue.append(match[to])
    return False


def maximum_matching(adj: list[list[int]], match: list[int]) -> list[int]:
    """A maximum matching grown from ``match`` (vertices matched there stay matched)."""
    for vertex in range(len(adj)):
        if match[vertex] == -1 and adj[vertex]:
            _augment(adj, match, vertex)
    return match


def greedy_matching(adj: list[list[int]], match: list[int]) -> list[int]:
    for v in range(len(adj)):
        if match[v] == -1:
            for to in adj[v]:
                if match[to] == -1:
                    match[v], match[to] = to, v
                    break
    return match
