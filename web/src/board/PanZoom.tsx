// Pan (drag) and zoom (wheel, pinch, buttons) around the board. A drag does not click.
import { Icon } from "../ui/icons";
import type { ComponentChildren, JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import * as i18n from "../i18n";

export function PanZoom({ children }: { children: ComponentChildren }): JSX.Element {
  const [t, setT] = useState({ x: 0, y: 0, k: 1 });
  const ref = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const moved = useRef(0);
  const pinch = useRef<{ d: number; k: number } | null>(null);

  const clampK = (k: number) => Math.min(6, Math.max(1, k));
  function zoomAt(cx: number, cy: number, factor: number) {
    setT((o) => {
      const k = clampK(o.k * factor);
      const f = k / o.k;
      return { k, x: cx - (cx - o.x) * f, y: cy - (cy - o.y) * f };
    });
  }
  function local(e: { clientX: number; clientY: number }) {
    const r = ref.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }
  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    const p = local(e);
    zoomAt(p.x, p.y, e.deltaY < 0 ? 1.15 : 1 / 1.15);
  };
  const onDown = (e: PointerEvent) => {
    pointers.current.set(e.pointerId, local(e));
    moved.current = 0;
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      pinch.current = { d: Math.hypot(a.x - b.x, a.y - b.y), k: t.k };
    }
  };
  const onMove = (e: PointerEvent) => {
    const prev = pointers.current.get(e.pointerId);
    if (!prev) return;
    const p = local(e);
    pointers.current.set(e.pointerId, p);
    if (pointers.current.size === 2 && pinch.current) {
      const [a, b] = [...pointers.current.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const k = clampK((pinch.current.k * d) / pinch.current.d);
      zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, k / t.k);
      moved.current += 10;
      return;
    }
    const dx = p.x - prev.x;
    const dy = p.y - prev.y;
    moved.current += Math.abs(dx) + Math.abs(dy);
    if (moved.current > 6 && t.k > 1) {
      ref.current?.setPointerCapture?.(e.pointerId);
      setT((o) => ({ ...o, x: o.x + dx, y: o.y + dy }));
    }
  };
  const onUp = (e: PointerEvent) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  };
  const onClickCapture = (e: MouseEvent) => {
    if (moved.current > 6) {
      e.stopPropagation();
      e.preventDefault();
    }
    moved.current = 0;
  };
  const centre = () => {
    const r = ref.current!.getBoundingClientRect();
    return [r.width / 2, r.height / 2] as const;
  };
  return (
    <div class="panzoom" ref={ref} style={{ touchAction: t.k > 1 ? "none" : "pan-y" }} onWheel={onWheel} onPointerDown={onDown} onPointerMove={onMove}
      onPointerUp={onUp} onPointerCancel={onUp} onClickCapture={onClickCapture}>
      <div class="panzoom-inner" style={{ transform: `translate(${t.x}px, ${t.y}px) scale(${t.k})` }}>{children}</div>
      <div class="zoom-buttons">
        <button type="button" title={i18n.t("board.zoom_in")} onClick={() => zoomAt(...centre(), 1.4)}>+</button>
        <button type="button" title={i18n.t("board.zoom_out")} onClick={() => zoomAt(...centre(), 1 / 1.4)}>−</button>
        <button type="button" title={i18n.t("board.whole")} aria-label={i18n.t("board.whole")} onClick={() => setT({ x: 0, y: 0, k: 1 })}><Icon name="fit" size={18} /></button>
      </div>
    </div>
  );
}
