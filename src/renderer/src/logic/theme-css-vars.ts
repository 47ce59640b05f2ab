import { computed, type ComputedRef } from 'vue';
import { useThemeVars } from 'naive-ui';

type ThemeVars = ReturnType<typeof useThemeVars>['value'];

/**
 * naive-ui theme values as CSS custom properties (they follow theme changes), for plain elements
 * styled in scoped CSS instead of a naive-ui component per element: `{ '--name': 'themeKey' }`.
 */
export function useThemeCssVars(names: Record<string, keyof ThemeVars>): ComputedRef<Record<string, string>> {
  const theme = useThemeVars();
  return computed(() => Object.fromEntries(Object.entries(names).map(([name, key]) => [name, String(theme.value[key])])));
}
