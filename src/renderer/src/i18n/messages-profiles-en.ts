// English labels of lane "profiles" (issue 17: several merchants — the header's switcher, Settings'
// Merchants section, adding, renaming and removing, the merchant column and filter of the lists);
// merged into messages-en.ts. messages-profiles-zh-cn.ts has the same keys (checked by its type).
export const profilesEn = {
  'profiles.switcherTitle': 'Switch merchant ({open})',
  'profiles.add': 'Add merchant…',
  'profiles.manage': 'Manage merchants…',
  'profiles.shortcutHelp': 'Ctrl+Alt+1…9 switches to a merchant; this menu opens with {open}',

  'profiles.sectionTitle': 'Merchants',
  'profiles.sectionHint': 'Each merchant has its own connection, catalog, orders and card vault. Orders, cards, after-sales and the audit log show every merchant together.',
  'profiles.col.name': 'Name',
  'profiles.col.state': 'Connection',
  'profiles.col.merchant': 'Merchant address',
  'profiles.col.userId': 'User ID',
  'profiles.col.shortcut': 'Shortcut',
  'profiles.activeTag': 'On screen',
  'profiles.switchTo': 'Switch to',
  'profiles.rename': 'Rename',
  'profiles.remove': 'Remove',

  'profiles.addTitle': 'Add a merchant',
  'profiles.addHint': 'Give the new merchant a name you will recognise. You connect it on the next screen (address, user ID and API key); the merchants you already have keep working.',
  'profiles.addOk': 'Next: connect',
  'profiles.renameTitle': 'Rename merchant',
  'profiles.renameOk': 'Rename',
  'profiles.cancel': 'Cancel',
  'profiles.nameLabel': 'Merchant name',
  'profiles.namePlaceholder': 'e.g. Game cards supplier',
  'profiles.nameHelp': 'Up to {max, plural, one {# character} other {# characters}}, shown in the header, in lists and in notifications.',
  'profiles.nameProblem.empty': 'Enter a name.',
  'profiles.nameProblem.tooLong': 'The name is too long: at most {max, plural, one {# character} other {# characters}}.',
  'profiles.nameProblem.badCharacters': 'The name cannot contain / or \\ or control characters.',
  'profiles.nameProblem.taken': 'Another merchant already has this name (capitals do not count).',

  'profiles.connectingNew': 'Connecting the new merchant',
  'profiles.backTo': 'Back to',

  'profiles.removeTitle': 'Remove merchant',
  'profiles.removeIntro': 'Removing deletes this merchant’s connection, its key, its catalog, its orders and its card vault from this computer:',
  'profiles.removeLast': 'This is your only merchant, so it cannot be removed. Add another merchant first, or clear its key in the connection settings.',
  'profiles.removeBusy': 'This merchant still has work open, so it cannot be removed now. Finish or withdraw it first:',
  'profiles.work.orderIntents': 'Orders not yet accepted by the merchant',
  'profiles.work.orders': 'Orders not finished',
  'profiles.work.refunds': 'Refunds in progress',
  'profiles.work.aftersales': 'After-sales cases or messages not yet sent',
  'profiles.removeUnexported': '{count, plural, one {# card in its vault was} other {# cards in its vault were}} never exported.',
  'profiles.exportFirstHint': 'Export them first so you keep them; removing deletes them.',
  'profiles.exportSwitchHint': 'Export them first so you keep them. The export works on the merchant on screen, so this merchant is switched to first.',
  'profiles.exportFirst': 'Export its cards…',
  'profiles.switchAndExport': 'Switch to it and export its cards…',
  'profiles.removeCardsExported': 'Its vault holds {count, plural, one {# card} other {# cards}}, all exported before; they are deleted with it.',
  'profiles.removeTypeName': 'Type the merchant’s name to confirm:',
  'profiles.removeDiscard': 'I understand that {count, plural, one {the # card never exported is} other {the # cards never exported are}} deleted for good.',
  'profiles.removeOk': 'Remove merchant',

  'profiles.vaultMixed': 'Select cards of one merchant at a time to mark or export them',
  'profiles.column': 'Merchant',
  'profiles.filter': 'Merchant',
  'profiles.filterAll': 'All',
};

export type ProfilesMessageKey = keyof typeof profilesEn;
