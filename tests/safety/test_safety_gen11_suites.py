"""Commands from other projects' own command-gate test suites (gen11): the families their tune
rows exposed, each kept when wrapped, and the look-alikes that must stay low.

- a cloud resource opened to the whole internet (`public-exposure`, critical): a security
  group / firewall / NSG rule letting 0.0.0.0/0 (::/0, `*`, `Internet`) in on anything but the
  web ports, a bucket or container made public (policy Principal `*`, public ACL, the
  public-access block removed, `allUsers` granted) -- a security control switched off;
- kubectl's read-only sub-verbs (`rollout status|history`, `auth can-i|whoami`, `convert`) and
  `kubectl certificate approve` (issues a credential the cluster trusts: account change);
- a Windows build of a program we know, run from WSL or Git Bash (`kubectl.exe`, `git.exe`,
  `rm.exe`), is that program;
- `base64 -oFILE` (the glued getopt form) writes FILE.
"""

from __future__ import annotations

import pytest

from aintern_ls.safety import assess
from tests.safety._levels import B, C, D, M, S


def _wrapped(command: str) -> list[str]:
    quoted = command.replace("'", "'\"'\"'")
    return [
        command,
        f"sudo {command}",
        f"env FOO=1 {command}",
        f"sh -c '{quoted}'",
        f"bash -c '{quoted}'",
        f"eval '{quoted}'",
        f"f() {{ {command}; }}; f",
        f"true && {command}",
    ]


EXPOSED = [
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22"
    " --cidr 0.0.0.0/0",
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 3389"
    " --cidr 0.0.0.0/0",
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol -1 --cidr 0.0.0.0/0",
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --ip-permissions"
    " IpProtocol=tcp,FromPort=5432,ToPort=5432,IpRanges=[{CidrIp=0.0.0.0/0}]",
    "aws ec2 authorize-security-group-ingress --group-id sg-1 --ip-permissions"
    " IpProtocol=tcp,FromPort=0,ToPort=65535,Ipv6Ranges=[{CidrIpv6=::/0}]",
    "aws s3api put-bucket-policy --bucket b --policy"
    ' \'{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject"}]}\'',
    "aws s3api put-bucket-policy --bucket b --policy"
    ' \'{"Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"s3:*"}]}\'',
    "aws s3api put-bucket-acl --bucket b --acl public-read-write",
    "aws s3api put-object-acl --bucket b --key k --acl public-read",
    "aws s3api delete-public-access-block --bucket b",
    "aws s3api put-public-access-block --bucket b --public-access-block-configuration"
    " BlockPublicAcls=false,IgnorePublicAcls=false,"
    "BlockPublicPolicy=false,RestrictPublicBuckets=false",
    "gsutil iam ch allUsers:objectViewer gs://data",
    "gsutil acl ch -u AllUsers:R gs://data/report.csv",
    "gsutil -m acl ch -r -u AllUsers:R gs://data",
    "gcloud storage buckets add-iam-policy-binding gs://data --member=allUsers"
    " --role=roles/storage.objectViewer",
    "gcloud compute firewall-rules create open-ssh --allow tcp:22 --source-ranges 0.0.0.0/0",
    "gcloud compute firewall-rules create any --allow all --source-ranges=0.0.0.0/0",
    "az network nsg rule create -g rg --nsg-name n -n rdp --priority 100"
    " --source-address-prefixes '*' --destination-port-ranges 3389",
    "az network nsg rule create -g rg --nsg-name n -n any --priority 100"
    " --source-address-prefixes Internet --destination-port-ranges '*'",
    "az storage container set-permission --name c --account-name a --public-access container",
    "az storage account update -n a -g rg --allow-blob-public-access true",
]


@pytest.mark.parametrize("command", EXPOSED)
def test_opening_a_cloud_resource_to_the_internet_is_critical(command: str) -> None:
    for form in _wrapped(command):
        a = assess(form, "bash")
        assert a.level >= C, form
        assert "public-exposure" in {f.rule for f in a.findings}, form


@pytest.mark.parametrize(
    "command",
    [
        # only the web ports opened to the world: what a web server needs
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 443"
        " --cidr 0.0.0.0/0",
        "gcloud compute firewall-rules create web --allow tcp:80,tcp:443 --source-ranges=0.0.0.0/0",
        "az network nsg rule create -g rg --nsg-name n -n web --priority 100"
        " --source-address-prefixes Internet --destination-port-ranges 443",
        # a private range, a rule closed, a deny rule, egress
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22"
        " --cidr 10.0.0.0/8",
        "aws ec2 revoke-security-group-ingress --group-id sg-1 --protocol tcp --port 22"
        " --cidr 0.0.0.0/0",
        "gcloud compute firewall-rules create deny-all --action=DENY --rules=all"
        " --source-ranges=0.0.0.0/0",
        "gcloud compute firewall-rules create out --direction=EGRESS --allow all"
        " --destination-ranges=0.0.0.0/0 --source-ranges=0.0.0.0/0",
        "az network nsg rule create -g rg --nsg-name n -n x --priority 100"
        " --source-address-prefixes '*' --destination-port-ranges 22 --access Deny",
        # buckets kept private, a named user granted, a service (not data) made public
        "aws s3api put-bucket-acl --bucket b --acl private",
        "aws s3api put-public-access-block --bucket b --public-access-block-configuration"
        " BlockPublicAcls=true,IgnorePublicAcls=true,"
        "BlockPublicPolicy=true,RestrictPublicBuckets=true",
        "aws s3api put-bucket-policy --bucket b --policy file://policy.json",
        "gsutil iam ch user:bob@example.com:objectViewer gs://data",
        "gcloud run services add-iam-policy-binding web --member=allUsers --role=roles/run.invoker",
        "az storage container set-permission --name c --account-name a --public-access off",
    ],
)
def test_exposure_look_alikes_stay_moderate(command: str) -> None:
    a = assess(command, "bash")
    assert a.level == M, command
    assert "public-exposure" not in {f.rule for f in a.findings}, command


@pytest.mark.parametrize(
    "command",
    [
        "aws ec2 describe-security-groups --filters Name=ip-permission.cidr,Values=0.0.0.0/0",
        "gcloud compute firewall-rules list --filter=sourceRanges:0.0.0.0/0",
        "aws s3api get-bucket-policy --bucket b",
        "echo aws ec2 authorize-security-group-ingress --port 22 --cidr 0.0.0.0/0",
        "grep -rn 'allUsers:objectViewer' infra/",
        "# gsutil iam ch allUsers:objectViewer gs://data",
    ],
)
def test_exposure_reads_and_text_are_safe(command: str) -> None:
    assert assess(command, "bash").level == S, command


@pytest.mark.parametrize(
    "command,expected",
    [
        ("kubectl rollout status deployment nginx", S),
        ("kubectl rollout history deploy/web", S),
        ("kubectl rollout --recursive=false status --timeout=0s deployment -w nginx", S),
        ("kubectl auth can-i create pods", S),
        ("kubectl auth whoami", S),
        ("kubectl convert -f pod.yaml --output-version=v1", S),
        ("kubectl rollout restart deployment nginx", M),
        ("kubectl rollout undo deployment nginx", M),
        ("kubectl auth reconcile -f rbac.yaml", M),
        ("kubectl certificate deny csr-1", M),
        ("kubectl get csr", S),
    ],
)
def test_kubectl_sub_verbs(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


@pytest.mark.parametrize(
    "command", ["kubectl certificate approve csr-12345", "oc certificate approve x"]
)
def test_approving_a_signing_request_is_an_account_change(command: str) -> None:
    for form in _wrapped(command):
        a = assess(form, "bash")
        assert a.level >= C, form
        assert "account" in {f.rule for f in a.findings}, form


@pytest.mark.parametrize(
    "command,expected",
    [
        ("kubectl.exe get pods", S),
        ("kubectl.exe apply -f deploy.yaml --dry-run", S),
        ("git.exe status", S),
        ("C:/tools/kubectl.exe get pods", S),
        ("kubectl.exe delete pod x", D),
        ("terraform.exe destroy -auto-approve", D),
        ("rm.exe -rf /", B),
        ("rm.exe -rf ~", B),
    ],
)
def test_a_windows_build_of_a_known_program_is_that_program(command: str, expected: object) -> None:
    for form in _wrapped(command) if expected >= D else [command]:
        assert assess(form, "bash").level >= expected, form
    assert assess(command, "bash").level == expected, command


@pytest.mark.parametrize(
    "command,expected",
    [
        ("base64 -ob64.txt", M),
        ("base64 -o out.bin", M),
        ("base64 --output=out.bin", M),
        ("base64 file.txt", S),
        ("base64 -d encoded.txt", S),
    ],
)
def test_base64_output_file(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


# A deleter given no target: what the pipeline lists is what its author means to delete
# (the xargs mistake); without a pipe nothing is named (`rm -rf` alone, `xargs -i rm -rf`
# with no `{}`, a bare `del`): moderate.
NO_TARGET = [
    ("find . -name '*.rs' | rm", "bash"),
    ("ls -la | grep .git | rm -rf", "bash"),
    ("cat list.txt | rm -f", "bash"),
]


@pytest.mark.parametrize("command,shell", NO_TARGET)
def test_a_deleter_given_no_target_is_dangerous(command: str, shell: str) -> None:
    for form in _wrapped(command):
        assert assess(form, shell).level >= D, form


@pytest.mark.parametrize(
    "command", ["dir | del", "type list.txt | del /q", "dir /b | findstr .log | del"]
)
def test_cmd_del_given_no_target(command: str) -> None:
    assert assess(command, "cmd").level == D, command
    assert assess(f"cmd /c {command}", "cmd").level >= D, command


@pytest.mark.parametrize(
    "command,shell",
    [
        ("rm", "bash"),
        ("rm -f", "bash"),
        ("rm -r", "bash"),
        ("rm -rf", "bash"),
        ("echo / | xargs -i rm -rf", "bash"),
        ("del /s /q", "cmd"),
        ("trash", "bash"),
        ("del", "cmd"),
        ("rd /s", "cmd"),
        ("echo rm -rf", "bash"),
        ("grep -n 'rm -rf' notes.md", "bash"),
        ("man rm", "bash"),
        ("rm --help", "bash"),
    ],
)
def test_no_target_look_alikes_stay_low(command: str, shell: str) -> None:
    assert assess(command, shell).level <= M, command


# Cloud CLIs (Dippy's approval tests): reads named other than list/describe/get, global
# options before the service, revocations that destroy nothing, and IAM password/MFA changes.
@pytest.mark.parametrize(
    "command,expected",
    [
        ("aws --profile prod --region us-west-2 lambda list-functions", S),
        ("aws dynamodb query --table-name t", S),
        ("aws dynamodb batch-get-item --request-items file://items.json", S),
        ("aws dynamodb transact-get-items --transact-items file://items.json", S),
        ("aws cloudformation validate-template --template-body file://t.yaml", S),
        ("aws s3api head-object --bucket b --key k", S),
        (
            "aws iam simulate-principal-policy --policy-source-arn arn --action-names s3:GetObject",
            S,
        ),
        ("gcloud --project p compute instances list", S),
        ("aws dynamodb batch-write-item --request-items file://items.json", M),
        ("aws dynamodb transact-write-items --transact-items file://items.json", M),
        ("aws iam remove-user-from-group --user-name u --group-name g", M),
        ("aws lambda remove-permission --function-name f --statement-id s", M),
        ("gcloud projects remove-iam-policy-binding p --member user:bob --role roles/editor", M),
        ("aws --profile prod --region us-west-2 lambda delete-function --function-name f", D),
        ("aws --profile prod ec2 terminate-instances --instance-ids i-1", D),
        ("aws ec2 delete-volume --volume-id vol-1", D),
    ],
)
def test_cloud_reads_and_revocations(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


@pytest.mark.parametrize(
    "command",
    [
        "aws iam change-password --old-password old --new-password new",
        "aws iam deactivate-mfa-device --user-name bob --serial-number arn:aws:iam::1:mfa/bob",
        "aws iam delete-virtual-mfa-device --serial-number arn:aws:iam::1:mfa/bob",
    ],
)
def test_iam_password_and_mfa_changes_are_account_changes(command: str) -> None:
    for form in _wrapped(command):
        a = assess(form, "bash")
        assert a.level >= C, form
        assert "account" in {f.rule for f in a.findings}, form


# A program run by a relative path is a file of the working tree, whatever it is named:
# running it is moderate even when the name is a read-only program we know.
@pytest.mark.parametrize(
    "command,expected",
    [
        ("./kubectl get pods", M),
        ("../bin/kubectl describe pod nginx", M),
        ("./ls -la", M),
        ("node_modules/.bin/eslint .", M),
        ("./gradlew test", M),
        ("sudo ./ls", C),
        ("./rm -rf /", B),
        # installed programs by absolute or home path, and operands, are not local programs
        ("/usr/local/bin/kubectl get pods", S),
        ("~/bin/kubectl get pods", S),
        ("ls ./src", S),
        ("cat ../README.md", S),
        ("./kubectl --help", S),
    ],
)
def test_a_relative_path_program_is_a_local_program(command: str, expected: object) -> None:
    assert assess(command, "bash").level == expected, command


@pytest.mark.parametrize(
    "command",
    [
        "aws s3api put-object --bucket b --key k --body report.csv",
        "aws --profile p s3api put-object --bucket b --key k --body ./dist/app.js",
        "aws s3api upload-part --bucket b --key k --body part.bin --part-number 1 --upload-id x",
    ],
)
def test_s3api_put_object_body_is_an_upload(command: str) -> None:
    for form in _wrapped(command):
        assert assess(form, "bash").level >= C, form
    assert assess("aws s3api put-object --bucket b --key empty/", "bash").level == M
