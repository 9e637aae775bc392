// English words of the sync bar for issue 15's phases: the list (pages, and categories when due) and
// the templates phase naming its scope; merged into messages-en.ts. messages-sync-scope-zh-cn.ts has the
// same keys.
export const syncScopeEn = {
  'sync.phase.list': 'product list',
  'sync.count.list': '{done} of {total, plural, one {# page} other {# pages}}',
  'sync.phase.templatesWanted': 'order forms (for {count, plural, one {# watched or ordered variant} other {# watched or ordered variants}})',
  'sync.phase.templatesAll': 'order forms (every variant)',
} as const;
