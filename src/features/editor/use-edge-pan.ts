'use client';

import { useStoreApi } from '@xyflow/react';
import { useCallback, useEffect, useRef } from 'react';

/** How near the canvas's edge (px) the pointer must be, and how long it must stay there, before the canvas pans. */
const ZONE = 40;
const DWELL_MS = 450;
/** Pressed this close to the edge, the intent is plain: pan at once. */
const PRESSED = 10;
const MAX_SPEED = 14;

/** How far into the edge zone the pointer is, per axis, from -1 (left/top) to 1 (right/bottom); 0 outside it. */
export function edgePush(x: number, y: number, width: number, height: number, zone = ZONE): [number, number] {
  const axis = (v: number, size: number) => (v < zone ? -Math.min(1, (zone - v) / zone) : v > size - zone ? Math.min(1, (v - (size - zone)) / zone) : 0);
  return [axis(x, width), axis(y, height)];
}

/**
 * Pans the canvas while a connection is dragged toward its edge on purpose, and only then: React Flow's own auto-pan
 * shoves the canvas away as soon as the pointer passes near an edge, even on the way to a port that sits there. Here
 * the pointer has to rest in the edge zone (or press right against the edge), not over a node, before the canvas
 * moves; it pans faster the deeper the pointer is, and stops the moment the pointer leaves the zone or lets go.
 */
export function useEdgePan(container: React.RefObject<HTMLElement | null>) {
  const rf = useStoreApi();
  const state = useRef({ active: false, x: 0, y: 0, since: 0, frame: 0 });

  const stop = useCallback(() => {
    const s = state.current;
    s.active = false;
    if (s.frame) window.cancelAnimationFrame(s.frame);
    s.frame = 0;
  }, []);

  const tick = useCallback(() => {
    const s = state.current;
    s.frame = 0;
    const box = container.current?.getBoundingClientRect();
    if (!s.active || !box) return;
    const [px, py] = edgePush(s.x - box.left, s.y - box.top, box.width, box.height);
    if (px === 0 && py === 0) {
      s.since = 0;
      return;
    }
    const now = performance.now();
    if (!s.since) s.since = now;
    const pressed = s.x - box.left < PRESSED || s.y - box.top < PRESSED || box.right - s.x < PRESSED || box.bottom - s.y < PRESSED;
    const overNode = document.elementFromPoint(s.x, s.y)?.closest('.react-flow__node') != null;
    if (!overNode && (pressed || now - s.since >= DWELL_MS)) {
      // panBy moves the view: a pointer pushing right wants to see what lies to the right, so the view moves left
      void rf.getState().panBy({ x: -px * MAX_SPEED, y: -py * MAX_SPEED });
    }
    s.frame = window.requestAnimationFrame(tick);
  }, [container, rf]);

  useEffect(() => {
    const onMove = (e: PointerEvent) => {
      const s = state.current;
      if (!s.active) return;
      s.x = e.clientX;
      s.y = e.clientY;
      if (!s.frame) s.frame = window.requestAnimationFrame(tick);
    };
    window.addEventListener('pointermove', onMove);
    return () => {
      window.removeEventListener('pointermove', onMove);
      stop();
    };
  }, [tick, stop]);

  const onConnectStart = useCallback(() => {
    Object.assign(state.current, { active: true, since: 0 });
  }, []);
  return { onConnectStart, onConnectEnd: stop };
}
