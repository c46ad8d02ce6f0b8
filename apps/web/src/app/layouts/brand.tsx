export function Brand({ collapsed = false }: { collapsed?: boolean }) {
  return (
    <div className="app-brand" title="临床科研患者登记平台">
      <span className="app-brand-mark" aria-hidden="true">
        ✚
      </span>
      {!collapsed && <span className="app-brand-name">临床科研登记平台</span>}
    </div>
  );
}
