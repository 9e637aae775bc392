// Removing a merchant (contract §15.1). The dialog first reads what the profile still has open
// (profiles.work): open work refuses, with its counts. Cards never exported are offered to the
// existing export first: the export works on the active merchant, so the dialog switches to this one
// before it opens (and says so). Then the buyer types the merchant's name and, when cards were never
// exported, ticks that they are deleted with it; core checks both again.
import { Alert, Button, Checkbox, Descriptions, Input, Modal, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import type { ProfileView, ProfileWork } from '../../../shared/ipc/views/profiles';
import { profileNameKey } from '../../../shared/profile-name';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { openWorkCount } from '../lib/profile-removal';
import { initialVaultFilter } from '../lib/vault-filter';
import { useProfiles, useProfileWork, useRemoveProfile, useSwitchProfile } from '../queries/profiles';
import { ExportDialog } from '../screens/ExportDialog';
import { useProfileDialogStore } from '../state/profile-dialog-store';
import { MerchantLabel, useMerchantLabel } from './MerchantName';
import { ProblemAlert } from './ProblemAlert';

function OpenWork({ work }: { work: ProfileWork }) {
  const { t } = useI18n();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="profile-remove-busy"
      title={t('profiles.removeBusy')}
      description={
        <Descriptions size="small" column={1}>
          {work.orderIntents > 0 ? <Descriptions.Item label={t('profiles.work.orderIntents')}>{work.orderIntents}</Descriptions.Item> : null}
          {work.orders > 0 ? <Descriptions.Item label={t('profiles.work.orders')}>{work.orders}</Descriptions.Item> : null}
          {work.refunds > 0 ? <Descriptions.Item label={t('profiles.work.refunds')}>{work.refunds}</Descriptions.Item> : null}
          {work.aftersales > 0 ? <Descriptions.Item label={t('profiles.work.aftersales')}>{work.aftersales}</Descriptions.Item> : null}
        </Descriptions>
      }
    />
  );
}

function Unexported({ profile, work, onExport, exporting }: { profile: ProfileView; work: ProfileWork; onExport: () => void; exporting: boolean }) {
  const { t } = useI18n();
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="profile-remove-unexported"
      title={t('profiles.removeUnexported', { count: work.cardsNotExported })}
      description={
        <Space orientation="vertical">
          <span>{profile.active ? t('profiles.exportFirstHint') : t('profiles.exportSwitchHint')}</span>
          <Button data-testid="profile-remove-export" onClick={onExport} loading={exporting}>
            {profile.active ? t('profiles.exportFirst') : t('profiles.switchAndExport')}
          </Button>
        </Space>
      }
    />
  );
}

function RemoveForm({ profile, onClose }: { profile: ProfileView; onClose: () => void }) {
  const { t } = useI18n();
  const profiles = useProfiles();
  const work = useProfileWork(profile.id);
  const remove = useRemoveProfile();
  const switcher = useSwitchProfile();
  const [typed, setTyped] = useState('');
  const label = useMerchantLabel();
  const [discard, setDiscard] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const last = (profiles.data?.profiles.length ?? 0) <= 1;
  const data = work.data;
  const busy = data !== undefined && openWorkCount(data) > 0;
  const needsDiscard = data !== undefined && data.cardsNotExported > 0;
  const nameMatches = profileNameKey(typed) === profileNameKey(label(profile));
  const canRemove = data !== undefined && !busy && !last && nameMatches && (!needsDiscard || discard);

  const onExport = (): void => {
    // The export works on the active merchant: this one becomes active first, as the button said.
    if (profile.active) setExportOpen(true);
    else switcher.mutate(profile.id, { onSuccess: () => setExportOpen(true) });
  };
  const submit = (): void => {
    if (!canRemove) return;
    // Closed once core answered, even when the frame under the dialog changed meanwhile.
    void remove.mutateAsync({ profileId: profile.id, confirmName: typed, discardUnexportedCards: needsDiscard && discard }).then(onClose, () => undefined);
  };
  return (
    <Modal
      open
      title={t('profiles.removeTitle')}
      onCancel={onClose}
      destroyOnHidden
      data-testid="profile-remove-dialog"
      footer={[
        <Button key="cancel" onClick={onClose} data-testid="profile-remove-cancel">
          {t('profiles.cancel')}
        </Button>,
        busy || last ? null : (
          <Button key="remove" danger type="primary" disabled={!canRemove} loading={remove.isPending} onClick={submit} data-testid="profile-remove-ok">
            {t('profiles.removeOk')}
          </Button>
        ),
      ]}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph style={{ margin: 0 }}>
          {t('profiles.removeIntro')}{' '}
          <Typography.Text strong>
            <MerchantLabel merchant={profile} />
          </Typography.Text>
        </Typography.Paragraph>
        {work.isLoading ? <Spin /> : null}
        {work.error !== null ? <ProblemAlert explained={explainError(work.error)} /> : null}
        {last ? <Alert type="info" showIcon data-testid="profile-remove-last" title={t('profiles.removeLast')} /> : null}
        {data !== undefined && busy ? <OpenWork work={data} /> : null}
        {data !== undefined && !busy && !last ? (
          <>
            {data.cards > 0 && !needsDiscard ? <Typography.Text type="secondary">{t('profiles.removeCardsExported', { count: data.cards })}</Typography.Text> : null}
            {needsDiscard ? <Unexported profile={profile} work={data} onExport={onExport} exporting={switcher.isPending} /> : null}
            <div>
              <Typography.Text>{t('profiles.removeTypeName')}</Typography.Text>
              <Input data-testid="profile-remove-name" value={typed} onChange={(event) => setTyped(event.target.value)} onPressEnter={submit} status={typed !== '' && !nameMatches ? 'error' : ''} />
            </div>
            {needsDiscard ? (
              <Checkbox data-testid="profile-remove-discard" checked={discard} onChange={(event) => setDiscard(event.target.checked)}>
                {t('profiles.removeDiscard', { count: data.cardsNotExported })}
              </Checkbox>
            ) : null}
          </>
        ) : null}
        {remove.error !== null ? <ProblemAlert explained={explainError(remove.error)} /> : null}
        {switcher.error !== null ? <ProblemAlert explained={explainError(switcher.error)} /> : null}
      </Space>
      <ExportDialog
        open={exportOpen}
        onClose={() => {
          setExportOpen(false);
          void work.refetch();
        }}
        selectedCards={[]}
        defaults={{ ...initialVaultFilter(null), what: 'notExported', orderRef: null, productRef: null }}
        orders={[]}
        products={[]}
      />
    </Modal>
  );
}

export function RemoveProfileDialog() {
  const dialog = useProfileDialogStore((state) => state.dialog);
  const open = useProfileDialogStore((state) => state.open);
  const profiles = useProfiles();
  if (dialog?.kind !== 'remove') return null;
  const profile = profiles.data?.profiles.find((entry) => entry.id === dialog.profileId);
  if (profile === undefined) return null;
  return <RemoveForm key={profile.id} profile={profile} onClose={() => open(null)} />;
}
