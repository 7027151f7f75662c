// The dashboard view (docs/product.md §2 "Dashboard view"): the user's vaults (vaults/VaultDashboard.tsx).
export { VaultDashboard as DashboardView } from '../../vaults/VaultDashboard.tsx';
