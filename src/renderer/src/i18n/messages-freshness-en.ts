// English words for how fresh a money figure is (issue 24 point 6): the balance's and a product's
// reading age while the app reads them again, and a reading that could not be renewed; merged into
// messages-en.ts. messages-freshness-zh-cn.ts has the same keys.
export const freshnessEn = {
  'fresh.age.now': 'just now',
  'fresh.age.seconds': '{n, plural, one {# second ago} other {# seconds ago}}',
  'fresh.age.minutes': '{n, plural, one {# minute ago} other {# minutes ago}}',
  'fresh.age.hours': '{n, plural, one {# hour ago} other {# hours ago}}',
  'fresh.age.days': '{n, plural, one {# day ago} other {# days ago}}',
  'fresh.balance.readAt': 'Read from the merchant {age}',
  'fresh.balance.refreshing': 'read {age}; checking with the merchant…',
  'fresh.balance.notRenewed': 'read {age}; could not be checked now',
  'fresh.product.refreshing': 'Checking price and stock with the merchant… Shown meanwhile: the reading of {age}.',
  'fresh.product.notRenewed': 'Price and stock as read {age}: the merchant could not be asked now.',
} as const;

export type FreshnessMessageKey = keyof typeof freshnessEn;
