# Read a JUnit XML file (argv[1]) as GitLab's unit test report parser
# does (its documented rules): the root is <testsuites> or a <testsuite>;
# every <testcase> under a suite is a test with a name, a classname and a
# time in seconds; its status is "failed" with a <failure> child, "error"
# with an <error>, "skipped" with a <skipped>, else "success"; the
# failure's or error's text is its details.  Prints one line per test,
# "STATUS CLASSNAME NAME", and exits 1 when the file cannot be read so:
# not XML, another root, a test case without a name or with a time that
# is not a number.
import sys
import xml.etree.ElementTree as ET


def fail(why):
    print("gitlab: " + why)
    sys.exit(1)


try:
    root = ET.parse(sys.argv[1]).getroot()
except (ET.ParseError, OSError) as e:
    fail("not XML: %s" % e)
if root.tag == "testsuites":
    suites = root.findall("testsuite")
elif root.tag == "testsuite":
    suites = [root]
else:
    fail("root <%s>" % root.tag)
for suite in suites:
    for case in suite.iter("testcase"):
        name = case.get("name")
        if not name:
            fail("a test case without a name")
        try:
            float(case.get("time", "0"))
        except ValueError:
            fail("time '%s' is not seconds" % case.get("time"))
        if case.find("failure") is not None:
            status = "failed"
            details = case.find("failure").text
        elif case.find("error") is not None:
            status = "error"
            details = case.find("error").text
        elif case.find("skipped") is not None:
            status = "skipped"
            details = case.find("skipped").text
        else:
            status = "success"
            details = ""
        if status in ("failed", "error") and not (details or "").strip():
            fail("%s: a %s without details" % (name, status))
        print(status, case.get("classname", ""), name)
