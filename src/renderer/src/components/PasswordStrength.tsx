// The live meter under the export password: four bars filled by the shared rule's score, and the
// reason in words. The same checkExportPassword decides in main, so what this says is what main does.
import { Progress, Typography } from 'antd';
import { checkExportPassword, type PasswordScore } from '../../../shared/password-policy';
import { useI18n } from '../i18n/use-i18n';

const COLORS: Readonly<Record<PasswordScore, string>> = { 0: '#ff4d4f', 1: '#ff7a45', 2: '#faad14', 3: '#52c41a', 4: '#389e0d' };

export function PasswordStrength({ password }: { password: string }) {
  const { t } = useI18n();
  const verdict = checkExportPassword(password);
  const reason = verdict.problem === null ? t('export.problem.ok') : t(`export.problem.${verdict.problem}`);
  return (
    <div data-testid="export-strength" data-score={verdict.score} data-ok={verdict.ok ? 'true' : 'false'}>
      <Progress
        steps={4}
        percent={verdict.score * 25}
        showInfo={false}
        strokeColor={COLORS[verdict.score]}
        size={{ height: 6 }}
        aria-label={t('export.strength')}
      />
      <Typography.Text style={{ marginInlineStart: 8 }} type={verdict.ok ? 'success' : 'danger'}>
        {t(`export.strength.${verdict.score}`)}
      </Typography.Text>
      <div>
        <Typography.Text type="secondary" data-testid="export-password-reason">
          {reason}
        </Typography.Text>
      </div>
    </div>
  );
}
